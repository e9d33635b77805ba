import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { SigningSecretService } from '../../auth/signing-secret.service';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-codes';
import { fromFrameworkError } from '../../common/errors/framework-errors';
import { requestIdOf } from '../../common/logging/request-id';
import { CheckoutError, CheckoutErrorCode } from '../checkout-errors';
import { RequestWithSignedCall, SignedCall } from './signed-call';
import { parseRequestText, readEnvelope } from './signed-envelope';
import { sendSignedBody, signedBody } from './signed-response';

/**
 * Checkout errors as {"Error":{"Code","Message","RequestId"}} with their HTTP status, signed once the
 * merchant is known (DESIGN.md section 5). Validation problems become RequestInvalid naming the fields;
 * a rate limit TooManyRequests (429); anything unexpected is a plain InternalError without internals.
 */
@Catch()
export class CheckoutExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('CheckoutErrors');

  constructor(private readonly signingSecrets: SigningSecretService) {}

  async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const request = http.getRequest<RequestWithSignedCall>();
    const error = toCheckoutError(exception);
    if (error.status >= 500) this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    else this.logger.warn(`${error.status} ${error.code}: ${error.message}`);
    if (response.headersSent) return;
    const requestId = requestIdOf(request);
    const body = { Error: { Code: error.code, Message: error.message, ...(requestId ? { RequestId: requestId } : {}) } };
    // The per-IP limit refuses before the signed transport has read the call: sign for the merchant it names.
    const call = request.signedCall?.merchantId || error.status !== 429 ? request.signedCall : merchantNamedIn(request);
    try {
      sendSignedBody(response, error.status, await signedBody(body, call, this.signingSecrets));
    } catch {
      response.status(error.status).json(body);
    }
  }
}

/** What goes on the wire: a CheckoutError, or a code the Checkout enum does not list (TooManyRequests). */
interface RenderedError {
  status: number;
  code: string;
  message: string;
}

function toCheckoutError(exception: unknown): RenderedError {
  if (exception instanceof CheckoutError) return exception;
  const known = fromFrameworkError(exception);
  if (known?.code === ErrorCode.TooManyRequests) {
    return { status: 429, code: 'TooManyRequests', message: known.messageOverride ?? 'Too many requests: retry after the number of seconds in Retry-After' };
  }
  if (known instanceof DomainError && known.fieldErrors?.length) {
    const details = known.fieldErrors.map((f) => f.Message).join('; ');
    return new CheckoutError(CheckoutErrorCode.RequestInvalid, details);
  }
  if (known) return new CheckoutError(CheckoutErrorCode.RequestInvalid, known.messageOverride ?? known.code);
  return new CheckoutError(CheckoutErrorCode.InternalError, 'The server could not process the request due to an unexpected error');
}

/** The envelope format and MerchantId of a call not yet read by the signed transport, if it has them. */
function merchantNamedIn(request: RequestWithSignedCall): SignedCall | undefined {
  try {
    const envelope = readEnvelope(request);
    return { format: envelope.format, merchantId: parseRequestText(envelope.requestText).merchantId };
  } catch {
    return undefined;
  }
}
