import { ErrorCode } from './error-codes';
import { FieldError } from './field-error';

/** Thrown by services; the global filter turns it into the spec's error object. Never an HttpException. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly fieldErrors?: FieldError[],
  ) {
    super(message ?? code);
    this.messageOverride = message;
  }

  readonly messageOverride?: string;
}

export const invalidRequest = (fieldErrors: FieldError[]) =>
  new DomainError(ErrorCode.InvalidRequest, undefined, fieldErrors);
