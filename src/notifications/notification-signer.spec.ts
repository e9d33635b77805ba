import { signatureHeader, signPayload, verifySignature } from './notification-signer';

// Expected values computed independently:
//   printf '%s' "1764500000.$BODY" | openssl dgst -sha256 -hmac 'whsec-test-secret' -binary | base64
const BODY = '{"EventId":"e1","EventType":"TEST","CreatedAt":"2025-11-30T10:00:00.000Z","Sequence":1}';
const T = 1764500000;
const NEW = 'g3gFv5SGywBmOCOZGfv+T2uC0ZtFYxhTRGBmu7Wmdhg=';
const OLD = '3tqGcewbFGgOdv8S1tu7CcH8KfgaSjNJCRwp5tN6G5k=';

describe('notification signer', () => {
  it('signs "<t>.<raw body>" with HMAC-SHA256 in Base64 (known vector)', () => {
    expect(signPayload('whsec-test-secret', T, BODY)).toBe(NEW);
    expect(signatureHeader(['whsec-test-secret'], T, BODY)).toBe(`t=${T},v1=${NEW}`);
  });

  it('adds a second v1 with the previous secret during a rotation overlap, newest first', () => {
    expect(signatureHeader(['whsec-test-secret', 'old-secret'], T, BODY)).toBe(`t=${T},v1=${NEW},v1=${OLD}`);
  });

  it('verifies with either secret, within five minutes, over the exact bytes only', () => {
    const header = signatureHeader(['whsec-test-secret', 'old-secret'], T, BODY);
    expect(verifySignature(header, BODY, 'whsec-test-secret', T + 10)).toBe(true);
    expect(verifySignature(header, BODY, 'old-secret', T + 299)).toBe(true);
    expect(verifySignature(header, BODY, 'another-secret', T)).toBe(false);
    expect(verifySignature(header, `${BODY} `, 'whsec-test-secret', T)).toBe(false);
    expect(verifySignature(header, BODY, 'whsec-test-secret', T + 301)).toBe(false);
    expect(verifySignature(`t=${T + 1},v1=${NEW}`, BODY, 'whsec-test-secret', T)).toBe(false);
    expect(verifySignature('v1=' + NEW, BODY, 'whsec-test-secret', T)).toBe(false);
  });

  it('refuses to sign without a secret or with a fractional timestamp', () => {
    expect(() => signatureHeader([], T, BODY)).toThrow();
    expect(() => signatureHeader(['s'], T + 0.5, BODY)).toThrow();
  });
});
