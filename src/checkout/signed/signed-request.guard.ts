import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { MerchantService } from '../../auth/merchant.service';
import { SigningSecretService } from '../../auth/signing-secret.service';
import { CheckoutError, CheckoutErrorCode } from '../checkout-errors';
import { RequestWithSignedCall } from './signed-call';
import { parseRequestText, readEnvelope } from './signed-envelope';

/**
 * Every Checkout call: the request text must name an existing merchant and carry a valid
 * Base64(HMAC-SHA256(secret, text)) signature, compared in constant time. Otherwise nothing runs.
 */
@Injectable()
export class SignedRequestGuard implements CanActivate {
  constructor(
    private readonly merchants: MerchantService,
    private readonly signingSecrets: SigningSecretService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithSignedCall>();
    const envelope = readEnvelope(request);
    request.signedCall = { format: envelope.format };
    const { payload, merchantId } = parseRequestText(envelope.requestText);

    if (!(await this.merchants.findById(merchantId))) {
      throw new CheckoutError(CheckoutErrorCode.MerchantNotFound, 'No merchant has this MerchantId in this environment');
    }
    request.signedCall.merchantId = merchantId;
    if (!envelope.signature) throw new CheckoutError(CheckoutErrorCode.SignatureMissing, 'The "signature" field is missing');
    if (!(await this.signingSecrets.verify(merchantId, envelope.requestText, envelope.signature))) {
      throw new CheckoutError(
        CheckoutErrorCode.SignatureInvalid,
        'The signature does not match: Base64(HMAC-SHA256(signing secret, exact UTF-8 bytes of "request"))',
      );
    }
    request.signedCall.payload = payload;
    request.signedCall.card = envelope.card;
    return true;
  }
}
