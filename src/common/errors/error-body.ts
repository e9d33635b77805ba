import { DomainError } from './domain-error';
import { ERROR_DEFINITIONS, ErrorCode } from './error-codes';
import { FieldError } from './field-error';

/** The spec's error object (section 2.10). */
export interface ErrorBody {
  Code: string;
  Message: string;
  FieldErrors?: FieldError[];
  /** The request's id (X-Request-Id), added when the error is sent; never stored with a replayable error. */
  RequestId?: string;
}

export interface HttpError {
  status: number;
  body: ErrorBody;
}

/** Maps a domain error to its HTTP status and body; the one place that knows the mapping. */
export function toHttpError(error: DomainError): HttpError {
  const definition = ERROR_DEFINITIONS[error.code];
  const body: ErrorBody = {
    Code: definition.wireCode ?? error.code,
    Message: error.messageOverride ?? definition.message,
  };
  if (error.fieldErrors?.length) body.FieldErrors = error.fieldErrors;
  return { status: definition.status, body };
}

export const INTERNAL_ERROR: HttpError = toHttpError(new DomainError(ErrorCode.InternalServerError));
