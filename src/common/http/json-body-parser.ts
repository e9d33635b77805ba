import { json, NextFunction, Request, Response } from 'express';
import { INTERNAL_ERROR, toHttpError } from '../errors/error-body';
import { fromFrameworkError } from '../errors/framework-errors';
import { sendError } from '../errors/global-exception.filter';

/**
 * express.json with a size limit, whose errors (malformed JSON, too large) get the spec's error object:
 * body-parser reports them through next(err), which Nest's exception filters never see.
 */
export function jsonBodyParser(limit: string) {
  const parse = json({ limit, strict: true, type: ['application/json', 'application/*+json'] });
  return (request: Request, response: Response, next: NextFunction) =>
    parse(request, response, (error?: unknown) => {
      if (!error) return next();
      const known = fromFrameworkError(error);
      const { status, body } = known ? toHttpError(known) : INTERNAL_ERROR;
      sendError(response, status, body);
    });
}
