import { json, NextFunction, Request, Response, urlencoded } from 'express';
import { invalidRequest } from '../errors/domain-error';
import { INTERNAL_ERROR, toHttpError } from '../errors/error-body';
import { FieldErrorCode } from '../errors/field-error';
import { fromFrameworkError } from '../errors/framework-errors';
import { sendError } from '../errors/global-exception.filter';

/**
 * Deepest nesting of arrays/objects accepted in a body. A session body needs 4; without a limit, a
 * 100 kB body of nested brackets overflows the stack in the recursive code after the parser (validation
 * pipe, class-transformer, JSON.stringify) and the request ends in a 500.
 */
export const MAX_JSON_DEPTH = 32;

/** A UTF-16 surrogate without its pair (JSON allows the escape "\ud800"; it is not a Unicode character). */
const UNPAIRED_SURROGATE = /\p{Cs}/u;

/**
 * express.json with a size limit, whose errors (malformed JSON, too large) get the spec's error object:
 * body-parser reports them through next(err), which Nest's exception filters never see.
 */
export function jsonBodyParser(limit: string) {
  const parse = json({ limit, strict: true, type: ['application/json', 'application/*+json'] });
  return (request: Request, response: Response, next: NextFunction) =>
    parse(request, response, (error?: unknown) => {
      const problem = error ? null : jsonBodyProblem(request.body);
      if (!error && !problem) return next();
      const known = error ? fromFrameworkError(error) : invalidRequest([{ Field: '$', Code: FieldErrorCode.Invalid, Message: problem! }]);
      const { status, body } = known ? toHttpError(known) : INTERNAL_ERROR;
      sendError(response, status, body);
    });
}

/**
 * Why a parsed body is refused before any handler sees it, or null. Nesting deeper than MAX_JSON_DEPTH;
 * an unpaired surrogate in a string or key (it cannot be stored as UTF-8: the databases would keep
 * replacement characters instead, and validator's isEmail throws URIError on it, a 500).
 * Walks without recursion, so any depth is safe.
 */
export function jsonBodyProblem(value: unknown): string | null {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current === 'string' && UNPAIRED_SURROGATE.test(current)) {
      return 'Request body contains a string that is not valid Unicode (an unpaired surrogate)';
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) return `Request body is nested more than ${MAX_JSON_DEPTH} levels deep`;
    for (const [key, child] of Object.entries(current)) pending.push([key, depth], [child, depth + 1]);
  }
  return null;
}

/** Form-encoded bodies (the Checkout interface's request/signature fields), with the same error handling. */
export function formBodyParser(limit: string) {
  const parse = urlencoded({ limit, extended: false, parameterLimit: 20 });
  return (request: Request, response: Response, next: NextFunction) =>
    parse(request, response, (error?: unknown) => {
      if (!error) return next();
      const known = fromFrameworkError(error);
      const { status, body } = known ? toHttpError(known) : INTERNAL_ERROR;
      sendError(response, status, body);
    });
}
