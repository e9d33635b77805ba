import type { Request } from 'express';
import { CheckoutError, CheckoutErrorCode } from '../checkout-errors';

export type EnvelopeFormat = 'form' | 'json' | 'query';

/** The parts of a signed call: the exact JSON text that was signed, its signature, and the unsigned card field. */
export interface SignedEnvelope {
  format: EnvelopeFormat;
  requestText: string;
  signature: string | undefined;
  card: string | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Reads `request` and `signature` (and `card`) from a form-encoded or JSON POST body, or from the query
 * of a GET (DESIGN.md section 3). The request text is kept exactly as sent: the signature covers its bytes.
 */
export function readEnvelope(request: Request): SignedEnvelope {
  const format: EnvelopeFormat = request.method === 'GET' ? 'query' : request.is('application/x-www-form-urlencoded') ? 'form' : 'json';
  const source = (format === 'query' ? request.query : request.body) as Record<string, unknown> | undefined;
  const field = (name: string) => {
    const value = source?.[name];
    return typeof value === 'string' ? value : undefined;
  };
  const requestText = field('request');
  if (requestText === undefined || requestText === '') {
    throw new CheckoutError(CheckoutErrorCode.RequestMissing, 'The "request" field (the JSON text of the call) is missing');
  }
  // A '+' in Base64 arrives as a space when the client did not form-encode it: put it back.
  return { format, requestText, signature: field('signature')?.replace(/ /g, '+'), card: field('card') };
}

/** The JSON object inside `request`, and its MerchantId. */
export function parseRequestText(text: string): { payload: Record<string, unknown>; merchantId: string } {
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    throw new CheckoutError(CheckoutErrorCode.RequestMalformed, '"request" is not valid JSON');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new CheckoutError(CheckoutErrorCode.RequestMalformed, '"request" must be a JSON object');
  }
  const merchantId = (payload as Record<string, unknown>).MerchantId;
  if (typeof merchantId !== 'string' || !UUID.test(merchantId)) {
    throw new CheckoutError(CheckoutErrorCode.MerchantIdInvalid, 'MerchantId must be the merchant\'s UUID');
  }
  return { payload: payload as Record<string, unknown>, merchantId: merchantId.toLowerCase() };
}
