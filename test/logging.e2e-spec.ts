import { Logger } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import type { Logger as PinoLogger } from 'pino';
import { ROOT_LOGGER } from '../src/common/logging/logging.module';
import { CARDS, card, checkoutParams, CheckoutTestApp, startCheckoutApp } from './setup/checkout';
import { sessionBody } from './setup/factories';
import { Credentials } from './setup/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const sign = (secret: string, text: string) => createHmac('sha256', secret).update(text, 'utf8').digest('base64');

/**
 * Everything the app writes to stdout while it runs (pino writes there), as parsed JSON lines. The
 * whole suite runs on one app at LOG_LEVEL=info, and every secret it sends is checked against all of it.
 */
describe('Logging: structured JSON lines, request ids, redaction', () => {
  let c: CheckoutTestApp;
  let user: Credentials;
  let output = '';
  let stdout: jest.SpyInstance;
  /** Every secret sent in the suite: none may appear anywhere in the log output. */
  const secrets: string[] = [];

  const lines = () =>
    output
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown> & { req?: { method: string; path: string }; res?: { statusCode: number } });
  const requestLines = (requestId: string) => lines().filter((line) => line.requestId === requestId);
  /** The one per-request summary line of a request (the one with req and res). */
  const requestLine = (requestId: string) => {
    const found = requestLines(requestId).filter((line) => line.req && line.res);
    expect(found).toHaveLength(1);
    return found[0];
  };
  /** pino writes the line when the response is finished, which can be just after the client read it. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

  beforeAll(async () => {
    const write = process.stdout.write.bind(process.stdout);
    stdout = jest.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      if (text.startsWith('{"level"')) {
        output += text;
        return true;
      }
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write);
    c = await startCheckoutApp({ LOG_LEVEL: 'info' });
    user = await c.t.merchantUser();
    secrets.push(user.password, Buffer.from(`${user.username}:${user.password}`).toString('base64'), c.secret);
  });
  afterAll(async () => {
    await c?.t.close();
    stdout?.mockRestore();
  });

  it('writes one JSON line per request with method, route, status, duration, request id and who called', async () => {
    const res = await c.t
      .http()
      .post('/v2.22/session')
      .auth(user.username, user.password)
      .set('X-Request-Id', 'client-trace.0001')
      .set('Cookie', 'session=cookie-value-must-not-be-logged')
      .send(sessionBody());
    expect(res.status).toBe(201);
    expect(res.headers['x-request-id']).toBe('client-trace.0001');
    secrets.push('cookie-value-must-not-be-logged');
    await settle();

    const line = requestLine('client-trace.0001');
    expect(line).toMatchObject({
      level: 'info',
      requestId: 'client-trace.0001',
      req: { method: 'POST', path: '/v2.22/session' },
      res: { statusCode: 201 },
      route: '/v2.22/session',
      merchantId: user.merchantId,
      userId: expect.stringMatching(UUID),
      msg: 'POST /v2.22/session 201',
    });
    expect(typeof line.durationMs).toBe('number');
    expect(typeof line.time).toBe('string');
    // Only the chosen fields of the request: no headers at all.
    expect(Object.keys(line.req!).sort()).toEqual(['ip', 'method', 'path']);
  });

  it('generates a UUID request id when none (or no sane one) is sent, and echoes it on every response', async () => {
    const none = await c.t.http().get('/health/live');
    expect(none.headers['x-request-id']).toMatch(UUID);
    for (const insane of ['has spaces', 'x'.repeat(101), 'quote"', 'a,b', '']) {
      const res = await c.t.http().get('/health/live').set('X-Request-Id', insane);
      expect(res.headers['x-request-id']).toMatch(UUID);
    }
    const exactly100 = 'A-z.0_9'.padEnd(100, 'x');
    expect((await c.t.http().get('/health/live').set('X-Request-Id', exactly100)).headers['x-request-id']).toBe(exactly100);
    // Refusals before any route (unknown path, malformed JSON) carry it too.
    const unknown = await c.t.http().get('/no/such/path');
    expect(unknown.status).toBe(404);
    expect(unknown.headers['x-request-id']).toMatch(UUID);
    expect(unknown.body.RequestId).toBe(unknown.headers['x-request-id']);
  });

  it('puts the request id in Session-interface error bodies, and logs the error under it', async () => {
    const wrong = await c.t
      .http()
      .get('/v2.22/session/3f2b8a9e-4c1d-4e7a-9b6f-1a2b3c4d5e6f')
      .auth(user.username, 'wrong-password-never-logged');
    secrets.push('wrong-password-never-logged', Buffer.from(`${user.username}:wrong-password-never-logged`).toString('base64'));
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({
      Code: 'AUTHENTICATION_REQUIRED',
      Message: 'Supplied username/password are invalid',
      RequestId: wrong.headers['x-request-id'],
    });

    const malformed = await c.t
      .http()
      .post('/v2.22/session')
      .auth(user.username, user.password)
      .set('Content-Type', 'application/json')
      .set('X-Request-Id', 'malformed-1')
      .send('{"Currency": "USD", "password": "in-a-broken-body"');
    secrets.push('in-a-broken-body');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ Code: 'INVALID_REQUEST', RequestId: 'malformed-1', FieldErrors: [expect.objectContaining({ Field: '$' })] });
    await settle();

    const logged = requestLines(wrong.headers['x-request-id']);
    expect(logged.find((line) => line.context === 'Errors')).toMatchObject({ level: 'warn', msg: expect.stringContaining('401 AUTHENTICATION_REQUIRED') });
    expect(requestLine(wrong.headers['x-request-id'])).toMatchObject({ res: { statusCode: 401 }, route: '/v2.22/session/:SessionId' });
    expect(requestLine('malformed-1')).toMatchObject({ res: { statusCode: 400 }, req: { path: '/v2.22/session' } });
  });

  it('a signed checkout WITH a card: the card, the signature and the request text are never logged', async () => {
    const cardFields = card(CARDS.visa, { VerificationCode: '947' });
    const text = JSON.stringify({ MerchantId: c.merchantId, ...checkoutParams() });
    const signature = sign(c.secret, text);
    secrets.push(signature, text, JSON.stringify(cardFields), CARDS.visa, '4111 1111 1111 1111');
    const res = await fetch(`${c.base}/checkout`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Request-Id': 'checkout-with-card' },
      body: new URLSearchParams({ request: text, signature, card: JSON.stringify(cardFields) }).toString(),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('checkout-with-card');
    expect(JSON.parse(new URLSearchParams(await res.text()).get('response')!)).toMatchObject({ Authorized: true });
    await settle();
    expect(requestLine('checkout-with-card')).toMatchObject({
      req: { method: 'POST', path: '/v2.22/checkout' },
      res: { statusCode: 200 },
      route: '/v2.22/checkout',
      merchantId: c.merchantId,
    });
  });

  it('signed GET calls log the path only (request and signature are in the query)', async () => {
    const sent: string[] = [];
    const client = c.client();
    const capturing = new (client.constructor as typeof import('../src/checkout/client/checkout-client').CheckoutClient)({
      baseUrl: c.base,
      merchantId: c.merchantId,
      signingSecret: c.secret,
      fetch: (async (input: string, init?: RequestInit) => {
        sent.push(new URL(input).searchParams.get('signature') ?? '');
        return fetch(input, { ...init, headers: { ...(init?.headers ?? {}), 'X-Request-Id': 'get-rates-1' } });
      }) as typeof fetch,
    });
    await capturing.getRates();
    secrets.push(...sent.filter(Boolean));
    await settle();
    expect(requestLine('get-rates-1')).toMatchObject({ req: { method: 'GET', path: '/v2.22/getRates' }, res: { statusCode: 200 } });
  });

  it('puts the request id inside signed Checkout error bodies', async () => {
    const text = JSON.stringify({ MerchantId: c.merchantId, ...checkoutParams() });
    const badSignature = sign('not-the-secret', text);
    secrets.push(badSignature);
    const res = await fetch(`${c.base}/checkout`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Request-Id': 'bad-signature-1' },
      body: new URLSearchParams({ request: text, signature: badSignature, card: JSON.stringify(card()) }).toString(),
    });
    expect(res.status).toBe(401);
    const form = new URLSearchParams(await res.text());
    expect(form.get('signature')).toBe(sign(c.secret, form.get('response')!));
    expect(JSON.parse(form.get('response')!)).toEqual({ Error: { Code: 'SignatureInvalid', Message: expect.any(String), RequestId: 'bad-signature-1' } });

    // Before the merchant is known the error is plain JSON, with the request id all the same.
    const unsigned = await fetch(`${c.base}/checkout`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(unsigned.status).toBe(400);
    expect(await unsigned.json()).toEqual({ Error: { Code: 'RequestMissing', Message: expect.any(String), RequestId: unsigned.headers.get('x-request-id') } });
    await settle();
    expect(requestLines('bad-signature-1').find((line) => line.context === 'CheckoutErrors')).toMatchObject({ msg: expect.stringContaining('SignatureInvalid') });
  });

  it('takes credentials and card data out of anything logged, whatever code logs it', async () => {
    const root = c.t.app.get<PinoLogger>(ROOT_LOGGER);
    root.info(
      {
        marker: 'direct-1',
        password: 'p4ss-direct',
        nested: { SigningSecret: 's3cret-direct', headers: { authorization: 'Basic ZGlyZWN0OnB3', Cookie: 'c=direct' } },
        card: { Number: '5555555555554444', VerificationCode: '321' },
        Number: '4000000000000002',
        list: [{ apiKey: 'key-direct' }, 'card 5555-5555-5555-4444 in a string'],
      },
      'paid with 4111 1111 1111 1111',
    );
    new Logger('Test').warn('a message with a card number 5555555555554444 in it');
    secrets.push('p4ss-direct', 's3cret-direct', 'ZGlyZWN0OnB3', 'c=direct', '5555555555554444', '5555-5555-5555-4444', '4000000000000002', 'key-direct');
    const direct = lines().find((line) => line.marker === 'direct-1')!;
    expect(direct).toMatchObject({
      password: '[REDACTED]',
      nested: { SigningSecret: '[REDACTED]', headers: { authorization: '[REDACTED]', Cookie: '[REDACTED]' } },
      card: '[REDACTED]',
      Number: '[REDACTED]',
      list: [{ apiKey: '[REDACTED]' }, 'card [REDACTED-PAN] in a string'],
      msg: 'paid with [REDACTED-PAN]',
    });
    expect(lines().find((line) => line.context === 'Test')).toMatchObject({ level: 'warn', msg: 'a message with a card number [REDACTED-PAN] in it' });
  });

  it('no secret sent in this suite appears anywhere in the log output', async () => {
    await settle();
    expect(output.length).toBeGreaterThan(0);
    expect(secrets.length).toBeGreaterThan(10);
    for (const secret of secrets) expect([secret, output.includes(secret)]).toEqual([secret, false]);
    // Nor the names of those fields, except in the line the previous test wrote on purpose.
    const requestOutput = output
      .split('\n')
      .filter((line) => !line.includes('"direct-1"'))
      .join('\n')
      .toLowerCase();
    for (const field of ['"authorization"', '"cookie"', '"signature"', '"verificationcode"', '"expiry"', '"card"', '"request"']) {
      expect([field, requestOutput.includes(field)]).toEqual([field, false]);
    }
    // Every line is JSON with a level and a time; request lines carry the request id.
    for (const line of lines()) {
      expect(typeof line.level).toBe('string');
      expect(typeof line.time).toBe('string');
      if (line.req) expect(typeof line.requestId).toBe('string');
    }
  });
});

describe('Logging: LOG_LEVEL', () => {
  it('silent writes nothing, yet every response still has its request id', async () => {
    let written = '';
    const spy = jest.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array) => {
      written += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return true;
    }) as typeof process.stdout.write);
    const c = await startCheckoutApp({ LOG_LEVEL: 'silent' });
    try {
      const res = await c.t.http().get('/v2.22/session/3f2b8a9e-4c1d-4e7a-9b6f-1a2b3c4d5e6f');
      expect(res.status).toBe(401);
      expect(res.headers['x-request-id']).toMatch(UUID);
      expect(res.body.RequestId).toBe(res.headers['x-request-id']);
      await new Promise((resolve) => setTimeout(resolve, 30));
    } finally {
      await c.t.close();
      spy.mockRestore();
    }
    expect(written).not.toContain('{"level"');
  });
});
