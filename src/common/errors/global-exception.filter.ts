import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { ErrorBody, INTERNAL_ERROR, toHttpError } from './error-body';
import { fromFrameworkError } from './framework-errors';
import { ReplayedError } from './replayed-error';
import { requestIdOf } from '../logging/request-id';

/** One filter for every error: known ones get their code and status, anything else a plain 500. */
@Catch()
export class GlobalExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const domainError = fromFrameworkError(exception);
    const { status, body } =
      exception instanceof ReplayedError ? exception : domainError ? toHttpError(domainError) : INTERNAL_ERROR;

    if (status >= 500) {
      this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    } else {
      this.logger.warn(`${status} ${body.Code}: ${body.Message}`);
    }
    if (response.headersSent) return;
    if (status === 401) response.setHeader('WWW-Authenticate', 'Basic realm="payments", charset="UTF-8"');
    sendError(response, status, body);
  }
}

/** Sends the error object with this request's id (a replayed error gets the id of the retry, not the original's). */
export function sendError(response: Response, status: number, body: ErrorBody): void {
  const requestId = requestIdOf(response.req);
  response.status(status).json(requestId ? { ...body, RequestId: requestId } : body);
}
