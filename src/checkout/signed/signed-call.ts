import type { Request } from 'express';
import { EnvelopeFormat } from './signed-envelope';

/** What the signed transport learned about a call, kept on the request for the handler and the response. */
export interface SignedCall {
  format: EnvelopeFormat;
  /** Set as soon as the merchant is known: from then on even errors are signed. */
  merchantId?: string;
  /** Set once the signature verified. */
  payload?: Record<string, unknown>;
  card?: string;
}

export type RequestWithSignedCall = Request & { signedCall?: SignedCall };
