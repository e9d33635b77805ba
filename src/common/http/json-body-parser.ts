import { json, NextFunction, Request, Response } from 'express';
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

/**
 * express.json with a size limit, whose errors (malformed JSON, too large) get the spec's error object:
 * body-parser reports them through next(err), which Nest's exception filters never see.
 */
export function jsonBodyParser(limit: string) {
  const parse = json({ limit, strict: true, type: ['application/json', 'application/*+json'] });
  return (request: Request, response: Response, next: NextFunction) =>
    parse(request, response, (error?: unknown) => {
      if (!error && !nestedDeeperThan(request.body, MAX_JSON_DEPTH)) return next();
      const known = error
        ? fromFrameworkError(error)
        : invalidRequest([
            { Field: '$', Code: FieldErrorCode.Invalid, Message: `Request body is nested more than ${MAX_JSON_DEPTH} levels deep` },
          ]);
      const { status, body } = known ? toHttpError(known) : INTERNAL_ERROR;
      sendError(response, status, body);
    });
}

/** True when arrays/objects nest more than `limit` levels; walks without recursion, so any depth is safe. */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}
