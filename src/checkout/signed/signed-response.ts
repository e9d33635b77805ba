import type { Response } from 'express';
import { hmac, SigningSecretService } from '../../auth/signing-secret.service';
import { SignedCall } from './signed-call';

export interface SignedBody {
  contentType: string;
  /** A string for form-encoded answers, else the JSON envelope object. */
  content: string | { response: string; signature: string };
}

/**
 * A Checkout answer: {"response": "<json text>", "signature": "…"} (form-encoded when the call was),
 * signed with the merchant's current secret; plain JSON only while the merchant is unknown.
 */
export async function signedBody(body: unknown, call: SignedCall | undefined, signingSecrets: SigningSecretService): Promise<SignedBody> {
  const text = JSON.stringify(body);
  if (!call?.merchantId) return { contentType: 'application/json', content: text };
  const signature = call.signingSecret ? hmac(call.signingSecret, text) : await signingSecrets.sign(call.merchantId, text);
  if (call.format === 'form') {
    return { contentType: 'application/x-www-form-urlencoded', content: new URLSearchParams({ response: text, signature }).toString() };
  }
  return { contentType: 'application/json', content: { response: text, signature } };
}

export function sendSignedBody(response: Response, status: number, signed: SignedBody): void {
  response.status(status).type(signed.contentType);
  if (typeof signed.content === 'string') response.send(signed.content);
  else response.json(signed.content);
}
