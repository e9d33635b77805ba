import { createHmac, timingSafeEqual } from 'node:crypto';

/** Receivers should refuse a `t` further than this from their clock (DESIGN.md section 7). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * The `Signature` header of a notification: `t=<unix seconds>,v1=<Base64 HMAC-SHA256(secret, "<t>.<body>")>`,
 * one `v1=` per secret, newest first: during a signing-secret rotation overlap the second one is the
 * previous secret's, so a receiver that still has only the old secret keeps verifying.
 */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  if (secrets.length === 0) throw new Error('No signing secret to sign a notification with');
  if (!Number.isSafeInteger(timestamp)) throw new Error('The timestamp must be whole unix seconds');
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${signPayload(secret, timestamp, body)}`)].join(',');
}

export function signPayload(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('base64');
}

/**
 * What a receiver does (the README shows the same steps): parse the header, refuse a stale `t`, and
 * accept when any `v1` equals the HMAC of `t` and the raw body under its secret (constant time).
 */
export function verifySignature(header: string, body: string, secret: string, nowSeconds: number, toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS): boolean {
  const parts = header.split(',').map((part) => part.trim().split('='));
  const t = Number(parts.find(([key]) => key === 't')?.[1]);
  if (!Number.isSafeInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(signPayload(secret, t, body), 'base64');
  let valid = false;
  for (const [key, ...rest] of parts) {
    if (key !== 'v1') continue;
    // Base64 may end in '=', which split('=') cut off: join the pieces back.
    const given = Buffer.from(rest.join('='), 'base64');
    valid = (given.length === expected.length && timingSafeEqual(given, expected)) || valid;
  }
  return valid;
}
