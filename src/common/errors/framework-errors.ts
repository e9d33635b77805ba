import { HttpException } from '@nestjs/common';
import { DomainError } from './domain-error';
import { ErrorCode } from './error-codes';
import { FieldErrorCode } from './field-error';

/**
 * Translates errors raised before our code runs (body parser, router, Nest's own exceptions)
 * into domain errors, so that they get the spec's error object too. Unknown errors return null.
 */
export function fromFrameworkError(error: unknown): DomainError | null {
  if (error instanceof DomainError) return error;
  const bodyParserType = (error as { type?: string } | null)?.type;
  if (bodyParserType === 'entity.too.large') return new DomainError(ErrorCode.PayloadTooLarge);
  if (bodyParserType === 'entity.parse.failed') {
    return new DomainError(ErrorCode.InvalidRequest, undefined, [
      { Field: '$', Code: FieldErrorCode.Invalid, Message: 'Request body is not valid JSON' },
    ]);
  }
  if (bodyParserType === 'encoding.unsupported' || bodyParserType === 'charset.unsupported') {
    return new DomainError(ErrorCode.UnsupportedMediaType);
  }
  if (error instanceof HttpException) {
    switch (error.getStatus()) {
      case 404:
        return new DomainError(ErrorCode.NotFound);
      case 405:
        return new DomainError(ErrorCode.MethodNotAllowed);
      case 413:
        return new DomainError(ErrorCode.PayloadTooLarge);
      case 415:
        return new DomainError(ErrorCode.UnsupportedMediaType);
      case 429:
        return new DomainError(ErrorCode.TooManyRequests);
      case 400:
        return new DomainError(ErrorCode.InvalidRequest, error.message);
      default:
        return null;
    }
  }
  return null;
}
