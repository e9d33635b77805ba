import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * An incoming X-Request-Id is kept only when it is a plain token: it goes into logs, response headers
 * and (signed) error bodies, so nothing that could break a log line, a header or a JSON string.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * The request id: the caller's X-Request-Id when sane (a proxy or the client correlates with
 * it), else a new UUID; echoed in the response's X-Request-Id header at once, so every answer has it.
 */
export function assignRequestId(request: IncomingMessage, response: ServerResponse): string {
  const given = request.headers['x-request-id'];
  const id = typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
  response.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/** The id assignRequestId gave this request (the request logger keeps it as req.id), or undefined. */
export function requestIdOf(request: IncomingMessage | undefined): string | undefined {
  const id = (request as (IncomingMessage & { id?: unknown }) | undefined)?.id;
  return typeof id === 'string' ? id : undefined;
}
