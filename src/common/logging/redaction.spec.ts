import { maskCardNumbers, redactLogObject } from './redaction';
import { assignRequestId, requestIdOf } from './request-id';
import type { IncomingMessage, ServerResponse } from 'node:http';

describe('log redaction', () => {
  it('replaces values under credential and card keys at any depth, without touching the input', () => {
    const input = {
      context: 'Test',
      Password: 'p',
      user: { name: 'ada', apiKey: 'k', tokens: ['a'] },
      headers: { Authorization: 'Basic x', cookie: 'c', 'x-request-id': 'r' },
      card: { Number: '4111111111111111' },
      request: '{"MerchantId":"…"}',
      requestId: 'kept',
      items: [{ VerificationCode: '123', Expiry: { Month: 1, Year: 2030 }, Sku: 'SKU-1' }],
    };
    const copy = JSON.parse(JSON.stringify(input));
    expect(redactLogObject(input)).toEqual({
      context: 'Test',
      Password: '[REDACTED]',
      user: { name: 'ada', apiKey: '[REDACTED]', tokens: '[REDACTED]' },
      headers: { Authorization: '[REDACTED]', cookie: '[REDACTED]', 'x-request-id': 'r' },
      card: '[REDACTED]',
      request: '[REDACTED]',
      requestId: 'kept',
      items: [{ VerificationCode: '[REDACTED]', Expiry: '[REDACTED]', Sku: 'SKU-1' }],
    });
    expect(input).toEqual(copy);
    const clean = { context: 'Test', n: 1 };
    expect(redactLogObject(clean)).toBe(clean);
  });

  it('masks card numbers (Luhn-valid, 13 to 19 digits, plain or grouped) and nothing else', () => {
    expect(maskCardNumbers('4111111111111111 / 4111 1111 1111 1111 / 4111-1111-1111-1111 / 3782 822463 10005')).toBe(
      '[REDACTED-PAN] / [REDACTED-PAN] / [REDACTED-PAN] / [REDACTED-PAN]',
    );
    for (const kept of ['4111111111111112', '12345678-1234-1234-1234-123456789012', 'order-1764000000001', 'took 1234 ms']) {
      expect(maskCardNumbers(kept)).toBe(kept);
    }
  });

  it('keeps a sane X-Request-Id and replaces anything else by a UUID, echoing it on the response', () => {
    const run = (given?: string) => {
      const headers: Record<string, string> = {};
      const response = { setHeader: (name: string, value: string) => (headers[name] = value) } as unknown as ServerResponse;
      const id = assignRequestId({ headers: given === undefined ? {} : { 'x-request-id': given } } as IncomingMessage, response);
      expect(headers['X-Request-Id']).toBe(id);
      return id;
    };
    expect(run('abc-123_x.y')).toBe('abc-123_x.y');
    for (const bad of [undefined, '', 'a b', 'a\nb', 'é', 'x'.repeat(101), '{"json":1}']) expect(run(bad)).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf({ id: 'r1' } as unknown as IncomingMessage)).toBe('r1');
    expect(requestIdOf(undefined)).toBeUndefined();
  });
});
