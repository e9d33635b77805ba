import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { matchesAny, SigningSecretService } from '../../auth/signing-secret.service';
import { CheckoutError, CheckoutErrorCode } from '../checkout-errors';
import { ReplayGuardService } from './replay-guard.service';
import { RequestWithSignedCall } from './signed-call';
import { REPLAYABLE } from './signed-endpoint.decorator';
import { parseRequestText, readEnvelope } from './signed-envelope';

/**
 * Every Checkout call: the request text must name an existing merchant and carry a valid
 * Base64(HMAC-SHA256(secret, text)) signature, compared in constant time; then, if it carries a
 * Timestamp, be fresh and not seen before (ReplayGuardService). Otherwise nothing runs.
 */
@Injectable()
export class SignedRequestGuard implements CanActivate {
  constructor(
    private readonly signingSecrets: SigningSecretService,
    private readonly replayGuard: ReplayGuardService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithSignedCall>();
    const envelope = readEnvelope(request);
    request.signedCall = { format: envelope.format };
    const { payload, merchantId } = parseRequestText(envelope.requestText);

    const { merchant, secrets } = await this.signingSecrets.merchantWithSecrets(merchantId);
    if (!merchant) throw new CheckoutError(CheckoutErrorCode.MerchantNotFound, 'No merchant has this MerchantId in this environment');
    request.signedCall.merchantId = merchantId;
    request.signedCall.merchant = merchant;
    if (!envelope.signature) throw new CheckoutError(CheckoutErrorCode.SignatureMissing, 'The "signature" field is missing');
    // Kept for this call's answer (never logged: it lives on the request object only).
    request.signedCall.signingSecret = secrets[0];
    if (!matchesAny(secrets, envelope.requestText, envelope.signature)) {
      throw new CheckoutError(
        CheckoutErrorCode.SignatureInvalid,
        'The signature does not match: Base64(HMAC-SHA256(signing secret, exact UTF-8 bytes of "request"))',
      );
    }
    // Only after the signature: a caller without the secret must not be able to fill the replay table.
    const replayable = this.reflector.get<boolean>(REPLAYABLE, context.getHandler()) === true;
    request.signedCall.payload = replayable
      ? this.replayGuard.withoutReplayFields(payload)
      : await this.replayGuard.check(merchantId, envelope.requestText, payload);
    request.signedCall.card = envelope.card;
    return true;
  }
}
