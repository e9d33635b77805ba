import { AddressInfo } from 'node:net';
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { MerchantService } from '../src/auth/merchant.service';
import { SigningSecret } from '../src/auth/signing-secret.entity';
import { SigningSecretService } from '../src/auth/signing-secret.service';
import { CheckoutClient } from '../src/checkout/client/checkout-client';
import { SignedRequestSeen } from '../src/checkout/signed/signed-request-seen.entity';
import { Clock } from '../src/common/clock/clock';
import { AppConfig } from '../src/common/config/app-config';
import { ConfigError } from '../src/common/config/env';
import { startTestApp, TestApp } from './setup/test-app';

const sign = (secret: string, text: string) => createHmac('sha256', secret).update(text, 'utf8').digest('base64');
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const REPLAYED = 'This signed request was already received; sign a new one with a fresh Timestamp and Nonce';

/** A running app, one merchant of it, and raw signed calls (to send what the client never would). */
async function startShop(env: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const t = await startTestApp(env);
  await t.app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}/v2.22`;
  const { merchant, signingSecret: secret } = await t.app.get(MerchantService).create({ name: 'Replay Shop' });
  const merchantId = merchant.id;
  const withHeaders: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...headers, ...(init?.headers as object) } });

  /** The request text of a getRates call with these extra fields. */
  const text = (fields: Record<string, unknown> = {}) => JSON.stringify({ MerchantId: merchantId, ...fields });
  const fresh = (offsetMs = 0) => ({ Timestamp: new Date(Date.now() + offsetMs).toISOString(), Nonce: randomUUID() });

  /** Sends a signed GET; returns the status and the answer, whose signature must verify with `verifyWith`. */
  const send = async (requestText: string, { operation = 'getRates', signingSecret = secret, verifyWith = secret } = {}) => {
    const query = new URLSearchParams({ request: requestText, signature: sign(signingSecret, requestText) });
    const res = await withHeaders(`${base}/${operation}?${query}`);
    const envelope = (await res.json()) as { response: string; signature: string };
    expect(sign(verifyWith, envelope.response)).toBe(envelope.signature);
    return { status: res.status, body: JSON.parse(envelope.response) as { Error?: { Code: string; Message: string } } };
  };

  const client = (options: { signingSecret?: string; replayProtection?: boolean; fetch?: typeof fetch } = {}) =>
    new CheckoutClient({ baseUrl: base, merchantId, signingSecret: secret, fetch: withHeaders, ...options });

  return { t, base, merchantId, secret, text, fresh, send, client, withHeaders };
}

describe('Checkout replay protection (sandbox: Timestamp optional)', () => {
  let shop: Awaited<ReturnType<typeof startShop>>;

  beforeAll(async () => {
    shop = await startShop();
  });
  afterAll(() => shop.t.close());

  const seen = (requestText: string) =>
    shop.t.dataSource.getRepository(SignedRequestSeen).findOneBy({ merchantId: shop.merchantId, requestHash: sha256(requestText) });

  it('the client adds Timestamp and a Nonce to every call, and its calls work (twice the same call too)', async () => {
    const sent: string[] = [];
    const recording: typeof fetch = (input, init) => {
      sent.push(new URL(String(input)).searchParams.get('request')!);
      return shop.withHeaders(input, init);
    };
    const client = shop.client({ fetch: recording });
    await expect(client.getRates()).resolves.toMatchObject({ RateOffers: expect.any(Array) });
    await expect(client.badge({ Theme: 'dark' })).resolves.toMatchObject({ MerchantName: 'Replay Shop' });
    await expect(client.badge({ Theme: 'dark' })).resolves.toMatchObject({ MerchantName: 'Replay Shop' });

    expect(sent).toHaveLength(3);
    for (const requestText of sent) {
      const payload = JSON.parse(requestText);
      expect(payload).toEqual({ MerchantId: shop.merchantId, ...(payload.Theme ? { Theme: 'dark' } : {}), Timestamp: expect.any(String), Nonce: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      expect(Math.abs(Date.parse(payload.Timestamp) - Date.now())).toBeLessThan(60_000);
      expect(await seen(requestText)).toMatchObject({ expiresAt: new Date(Date.parse(payload.Timestamp) + 300_000) });
    }
    expect(new Set(sent).size).toBe(3);
  });

  it('the very same signed text a second time: 409 RequestReplayed, signed', async () => {
    const requestText = shop.text(shop.fresh());
    expect((await shop.send(requestText)).status).toBe(200);
    const again = await shop.send(requestText);
    expect(again).toEqual({ status: 409, body: { Error: { Code: 'RequestReplayed', Message: REPLAYED, RequestId: expect.any(String) } } });
    // Through another route too: the request text is what counts.
    expect((await shop.send(requestText, { operation: 'badge' })).status).toBe(409);
  });

  it('the same text sent 10 times at once: exactly one is served', async () => {
    const requestText = shop.text(shop.fresh());
    const results = await Promise.all(Array.from({ length: 10 }, () => shop.send(requestText)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(409)]);
  });

  it('Timestamp and Nonce are not refused as unknown fields; other unknown fields still are', async () => {
    expect((await shop.send(shop.text(shop.fresh()))).status).toBe(200);
    expect((await shop.send(shop.text({ Theme: 'light', ...shop.fresh() }), { operation: 'badge' })).status).toBe(200);
    const unknown = await shop.send(shop.text({ Unknown: 1, ...shop.fresh() }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.Error).toMatchObject({ Code: 'RequestInvalid', Message: expect.stringMatching(/Unknown/) });
  });

  it.each([
    ['older than the window', -301_000],
    ['too far in the future', 301_000],
  ])('a Timestamp %s: 401 RequestExpired naming the window', async (_, offsetMs) => {
    const res = await shop.send(shop.text(shop.fresh(offsetMs)));
    expect(res.status).toBe(401);
    expect(res.body.Error).toEqual({ Code: 'RequestExpired', Message: expect.stringContaining('within 300 seconds'), RequestId: expect.any(String) });
  });

  it.each([-290_000, 290_000])('a Timestamp inside the window (%i ms) is accepted', async (offsetMs) => {
    expect((await shop.send(shop.text(shop.fresh(offsetMs)))).status).toBe(200);
  });

  it.each([
    ['not a date', { Timestamp: 'yesterday' }, /Timestamp/],
    ['without a zone', { Timestamp: '2025-11-27T10:00:00' }, /Timestamp/],
    ['an impossible date', { Timestamp: '2025-02-30T10:00:00Z' }, /Timestamp/],
    ['a number', { Timestamp: 1764237600 }, /Timestamp/],
    ['null', { Timestamp: null }, /Timestamp/],
    ['a Nonce over 64 characters', { Timestamp: new Date().toISOString(), Nonce: 'n'.repeat(65) }, /Nonce/],
    ['a Nonce that is not a string', { Timestamp: new Date().toISOString(), Nonce: 7 }, /Nonce/],
  ])('%s: 400 RequestInvalid', async (_, fields, message) => {
    const res = await shop.send(shop.text(fields));
    expect(res.status).toBe(400);
    expect(res.body.Error).toEqual({ Code: 'RequestInvalid', Message: expect.stringMatching(message), RequestId: expect.any(String) });
  });

  it('nothing is recorded before the signature verified', async () => {
    const requestText = shop.text(shop.fresh());
    const forged = await shop.send(requestText, { signingSecret: 'not-the-secret' });
    expect(forged.body.Error?.Code).toBe('SignatureInvalid');
    expect(await seen(requestText)).toBeNull();
    // So the forgery did not burn the genuine request.
    expect((await shop.send(requestText)).status).toBe(200);
  });

  it('without Timestamp: accepted in sandbox (as the real API), and not replay-protected', async () => {
    const requestText = shop.text();
    expect((await shop.send(requestText)).status).toBe(200);
    expect((await shop.send(requestText)).status).toBe(200);
    expect((await shop.send(shop.text({ Nonce: randomUUID() }))).status).toBe(200);
    await expect(shop.client({ replayProtection: false }).getRates()).resolves.toMatchObject({ RateOffers: expect.any(Array) });
  });

  it('rows whose Timestamp left the window are purged (at most once a minute), newer ones stay', async () => {
    const clock = shop.t.app.get(Clock);
    const old = shop.text(shop.fresh());
    expect((await shop.send(old)).status).toBe(200);
    const travel = 301_000 + 60_000;
    clock.travel(travel);
    try {
      // Sent with the (moved) server clock's time: this write triggers the purge.
      const current = shop.text({ Timestamp: clock.now().toISOString(), Nonce: randomUUID() });
      expect((await shop.send(current)).status).toBe(200);
      for (let i = 0; i < 50 && (await seen(old)); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await seen(old)).toBeNull();
      expect(await seen(current)).not.toBeNull();
      // Forgetting it is safe: the old request is now refused as expired.
      expect((await shop.send(old)).body.Error?.Code).toBe('RequestExpired');
    } finally {
      clock.travel(-travel);
    }
  });

  it('a secret issued for production is not usable in sandbox', async () => {
    const production = await shop.t.dataSource.transaction((manager) =>
      shop.t.app.get(SigningSecretService).issue(manager, shop.merchantId, 'production'),
    );
    const res = await shop.send(shop.text(shop.fresh()), { signingSecret: production });
    expect(res).toMatchObject({ status: 401, body: { Error: { Code: 'SignatureInvalid' } } });
    await expect(shop.client().getRates()).resolves.toMatchObject({ RateOffers: expect.any(Array) });
  });
});

describe('Checkout replay protection with CHECKOUT_REQUIRE_TIMESTAMP=true', () => {
  let shop: Awaited<ReturnType<typeof startShop>>;

  beforeAll(async () => {
    shop = await startShop({ CHECKOUT_REQUIRE_TIMESTAMP: 'true', CHECKOUT_REPLAY_WINDOW_SECONDS: '60' });
  });
  afterAll(() => shop.t.close());

  it('a request without Timestamp: 401 TimestampMissing, signed', async () => {
    const res = await shop.send(shop.text());
    expect(res.status).toBe(401);
    expect(res.body.Error).toEqual({ Code: 'TimestampMissing', Message: expect.stringMatching(/Timestamp/), RequestId: expect.any(String) });
    expect((await shop.send(shop.text({ Nonce: randomUUID() }))).body.Error?.Code).toBe('TimestampMissing');
  });

  it('the fingerprint script is exempt: a page reload loads the same signed URL again', async () => {
    const requestText = shop.text();
    const query = new URLSearchParams({ request: requestText, signature: sign(shop.secret, requestText) });
    for (let load = 0; load < 2; load++) {
      const res = await fetch(`${shop.base}/fingerprint?${query}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('gip_device_fingerprint');
    }
  });

  it('the client works, and the window is the configured one', async () => {
    await expect(shop.client().getRates()).resolves.toMatchObject({ RateOffers: expect.any(Array) });
    expect((await shop.send(shop.text(shop.fresh(-61_000)))).body.Error).toEqual({
      Code: 'RequestExpired',
      Message: expect.stringContaining('within 60 seconds'),
      RequestId: expect.any(String),
    });
  });
});

describe('Signing secrets per environment (APP_ENV=production)', () => {
  let shop: Awaited<ReturnType<typeof startShop>>;
  let sandboxSecret: string;

  beforeAll(async () => {
    // Production needs HTTPS (here: a trusted proxy's X-Forwarded-Proto) and an existing secrets key.
    shop = await startShop(
      { APP_ENV: 'production', TRUST_PROXY: '1', SECRETS_KEY: randomBytes(32).toString('base64') },
      { 'X-Forwarded-Proto': 'https' },
    );
    // A newer secret of the same merchant, but for sandbox.
    sandboxSecret = await shop.t.dataSource.transaction((manager) =>
      shop.t.app.get(SigningSecretService).issue(manager, shop.merchantId, 'sandbox'),
    );
  });
  afterAll(() => shop.t.close());

  it('the merchant created in production got a production secret', async () => {
    const rows = await shop.t.dataSource.getRepository(SigningSecret).find({ where: { merchantId: shop.merchantId }, order: { createdAt: 'ASC' } });
    expect(rows.map((r) => r.environment)).toEqual(['production', 'sandbox']);
  });

  it('a sandbox secret on production is refused: 401 SignatureInvalid (signed with the production secret)', async () => {
    const res = await shop.send(shop.text(shop.fresh()), { signingSecret: sandboxSecret, verifyWith: shop.secret });
    expect(res).toMatchObject({ status: 401, body: { Error: { Code: 'SignatureInvalid' } } });
  });

  it('the production secret works, and answers are signed with it although the sandbox secret is newer', async () => {
    await expect(shop.client().getRates()).resolves.toMatchObject({ RateOffers: expect.any(Array) });
    await expect(shop.client().badge()).resolves.toMatchObject({ MerchantName: 'Replay Shop' });
  });

  it('production requires Timestamp by default', async () => {
    expect(shop.t.config.checkoutRequireTimestamp).toBe(true);
    const res = await shop.send(shop.text());
    expect(res).toMatchObject({ status: 401, body: { Error: { Code: 'TimestampMissing' } } });
  });

  it('a rotation in production leaves the sandbox secret alone', async () => {
    const rotated = await shop.t.app.get(SigningSecretService).rotate(shop.merchantId);
    const rows = await shop.t.dataSource.getRepository(SigningSecret).find({ where: { merchantId: shop.merchantId }, order: { createdAt: 'ASC' } });
    expect(rows.map((r) => [r.environment, r.retiresAt === null])).toEqual([['production', false], ['sandbox', true], ['production', true]]);
    await expect(shop.client({ signingSecret: rotated.secret }).getRates()).resolves.toMatchObject({ RateOffers: expect.any(Array) });
  });
});

describe('Replay protection configuration', () => {
  const production = { APP_ENV: 'production', TRUST_PROXY: '1', SECRETS_KEY: randomBytes(32).toString('base64') };

  it('defaults: a 300 s window; Timestamp required in production only', () => {
    expect(AppConfig.fromEnvironment({})).toMatchObject({ checkoutReplayWindowSeconds: 300, checkoutRequireTimestamp: false });
    expect(AppConfig.fromEnvironment(production)).toMatchObject({ checkoutRequireTimestamp: true });
    expect(AppConfig.fromEnvironment({ ...production, CHECKOUT_REQUIRE_TIMESTAMP: 'false' }).checkoutRequireTimestamp).toBe(false);
    expect(AppConfig.fromEnvironment({ CHECKOUT_REQUIRE_TIMESTAMP: 'true', CHECKOUT_REPLAY_WINDOW_SECONDS: '30' })).toMatchObject({
      checkoutReplayWindowSeconds: 30,
      checkoutRequireTimestamp: true,
    });
  });

  it.each([
    ['CHECKOUT_REQUIRE_TIMESTAMP', 'yes'],
    ['CHECKOUT_REPLAY_WINDOW_SECONDS', '0'],
    ['CHECKOUT_REPLAY_WINDOW_SECONDS', '5m'],
  ])('%s=%s stops the start', (name, value) => {
    expect(() => AppConfig.fromEnvironment({ [name]: value })).toThrow(ConfigError);
    expect(() => AppConfig.fromEnvironment({ [name]: value })).toThrow(name);
  });
});
