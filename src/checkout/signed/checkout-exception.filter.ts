import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { SigningSecretService } from '../../auth/signing-secret.service';
import { DomainError } from '../../common/errors/domain-error';
import { fromFrameworkError } from '../../common/errors/framework-errors';
import { CheckoutError, CheckoutErrorCode } from '../checkout-errors';
import { RequestWithSignedCall } from './signed-call';
import { sendSignedBody, signedBody } from './signed-response';

/**
 * Checkout errors as {"Error":{"Code","Message"}} with their HTTP status, signed once the merchant is
 * known (DESIGN.md section 5). Validation problems become RequestInvalid naming the fields; anything
 * unexpected is a plain InternalError without internals.
 */
@Catch()
export class CheckoutExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('CheckoutErrors');

  constructor(private readonly signingSecrets: SigningSecretService) {}

  async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const error = toCheckoutError(exception);
    if (error.status >= 500) this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    else this.logger.warn(`${error.status} ${error.code}: ${error.message}`);
    if (response.headersSent) return;
    const body = { Error: { Code: error.code, Message: error.message } };
    const call = http.getRequest<RequestWithSignedCall>().signedCall;
    try {
      sendSignedBody(response, error.status, await signedBody(body, call, this.signingSecrets));
    } catch {
      response.status(error.status).json(body);
    }
  }
}

function toCheckoutError(exception: unknown): CheckoutError {
  if (exception instanceof CheckoutError) return exception;
  const known = fromFrameworkError(exception);
  if (known instanceof DomainError && known.fieldErrors?.length) {
    const details = known.fieldErrors.map((f) => f.Message).join('; ');
    return new CheckoutError(CheckoutErrorCode.RequestInvalid, details);
  }
  if (known) return new CheckoutError(CheckoutErrorCode.RequestInvalid, known.messageOverride ?? known.code);
  return new CheckoutError(CheckoutErrorCode.InternalError, 'The server could not process the request due to an unexpected error');
}
