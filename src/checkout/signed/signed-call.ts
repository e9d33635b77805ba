import type { Request } from 'express';
import type { Merchant } from '../../auth/merchant.entity';
import { EnvelopeFormat } from './signed-envelope';

/** What the signed transport learned about a call, kept on the request for the handler and the response. */
export interface SignedCall {
  format: EnvelopeFormat;
  /** Set as soon as the merchant is known: from then on even errors are signed. */
  merchantId?: string;
  merchant?: Merchant;
  /** Set once the signature verified. */
  payload?: Record<string, unknown>;
  card?: string;
  /** The merchant's current secret, read while verifying: the answer is signed with it. */
  signingSecret?: string;
}

export type RequestWithSignedCall = Request & { signedCall?: SignedCall };
