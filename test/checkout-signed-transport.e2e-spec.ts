import { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';
import { MerchantService } from '../src/auth/merchant.service';
import { SigningSecretService } from '../src/auth/signing-secret.service';
import { SigningSecret } from '../src/auth/signing-secret.entity';
import { CheckoutClient, CheckoutClientError } from '../src/checkout/client/checkout-client';
import { startTestApp, TestApp } from './setup/test-app';

const sign = (secret: string, text: string) => createHmac('sha256', secret).update(text, 'utf8').digest('base64');

describe('Checkout interface: signed transport (badge as the first signed call)', () => {
  let t: TestApp;
  let base: string;
  let merchantId: string;
  let secret: string;

  beforeAll(async () => {
    t = await startTestApp({ SECRET_ROTATION_OVERLAP_SECONDS: '3600', MOR_NAME: 'Example MoR Ltd.' });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}/v2.22`;
    const created = await t.app.get(MerchantService).create({ name: 'Tom & <Jerry> "Shop"' });
    merchantId = created.merchant.id;
    secret = created.signingSecret;
  });
  afterAll(() => t.close());

  const client = (overrides: Partial<{ signingSecret: string; encoding: 'form' | 'json' }> = {}) =>
    new CheckoutClient({ baseUrl: base, merchantId, signingSecret: secret, ...overrides });

  /** A raw call, to send what the client never would. */
  const raw = async (query: Record<string, string>) => {
    const res = await fetch(`${base}/badge?${new URLSearchParams(query)}`);
    return { status: res.status, body: await res.json() };
  };

  it('answers a signed GET with a signed response the client verifies', async () => {
    const badge = await client().badge({ ConsumerIpAddress: '81.2.69.160' });
    expect(badge).toMatchObject({
      MerchantName: 'Tom & <Jerry> "Shop"',
      MerchantOfRecord: 'Example MoR Ltd.',
      TermsOfServiceUrl: expect.stringMatching(/^http/),
      FlagImageUrl: expect.stringMatching(/\/assets\/flags\/gb\.svg$/),
      ImageUrl: expect.stringMatching(/\/assets\/badge-light\.svg$/),
    });
    expect(badge.Text).toContain('Example MoR Ltd. is the merchant of record');
    expect(badge.Text).toContain('Tom & <Jerry> "Shop"');
    // The ready-made fragment escapes the merchant's name.
    expect(badge.Html).toContain('Tom &amp; &lt;Jerry&gt; &quot;Shop&quot;');
    expect(badge.Html).not.toContain('<Jerry>');
  });

  it('serves the images it links to', async () => {
    const badge = await client().badge({ Theme: 'dark', ConsumerIpAddress: '8.8.8.8' });
    expect(badge.FlagImageUrl).toMatch(/flags\/us\.svg$/);
    for (const url of [badge.ImageUrl, badge.FlagImageUrl]) {
      const res = await fetch(url.replace(/^http:\/\/localhost:\d+/, base.replace('/v2.22', '')));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/image\/svg\+xml/);
    }
  });

  it.each(['form', 'json'] as const)('takes a POST as a %s envelope and answers in kind', async (encoding) => {
    const badge = await client({ encoding }).post<{ MerchantName: string }>('badge', { Theme: 'light' });
    expect(badge.MerchantName).toBe('Tom & <Jerry> "Shop"');
  });

  it('a form POST gets a form-encoded signed answer', async () => {
    const text = JSON.stringify({ MerchantId: merchantId });
    const res = await fetch(`${base}/badge`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      // A Base64 '+' sent without form-encoding arrives as a space; the service puts it back.
      body: `request=${encodeURIComponent(text)}&signature=${sign(secret, text).replace(/\+/g, ' ')}`,
    });
    expect(res.headers.get('content-type')).toMatch(/application\/x-www-form-urlencoded/);
    const form = new URLSearchParams(await res.text());
    expect(sign(secret, form.get('response')!)).toBe(form.get('signature'));
  });

  it.each([
    ['no request', 400, 'RequestMissing', {}],
    ['request not JSON', 400, 'RequestMalformed', { request: '{MerchantId:', signature: 'x' }],
    ['request a JSON array', 400, 'RequestMalformed', { request: '[1]', signature: 'x' }],
    ['MerchantId not a UUID', 400, 'MerchantIdInvalid', { request: '{"MerchantId":"shop-1"}', signature: 'x' }],
    ['an unknown merchant', 404, 'MerchantNotFound', { request: '{"MerchantId":"3f2b8a9e-4c1d-4e7a-9b6f-1a2b3c4d5e6f"}', signature: 'x' }],
  ])('%s: %i %s, unsigned (the merchant is not known)', async (_, status, code, query) => {
    const res = await raw(query as Record<string, string>);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ Error: { Code: code, Message: expect.any(String), RequestId: expect.any(String) } });
  });

  it.each([
    ['no signature', 'SignatureMissing', () => ({ request: JSON.stringify({ MerchantId: merchantId }) })],
    ['a signature made with another secret', 'SignatureInvalid', () => {
      const text = JSON.stringify({ MerchantId: merchantId });
      return { request: text, signature: sign('another-secret', text) };
    }],
    ['a request changed after signing', 'SignatureInvalid', () => {
      const signed = JSON.stringify({ MerchantId: merchantId, Theme: 'light' });
      return { request: JSON.stringify({ MerchantId: merchantId, Theme: 'dark' }), signature: sign(secret, signed) };
    }],
    ['a signature that is not Base64 of the right length', 'SignatureInvalid', () => ({ request: JSON.stringify({ MerchantId: merchantId }), signature: 'abc' })],
  ])('%s: 401 %s, signed once the merchant is known', async (_, code, query) => {
    const res = await raw(query());
    expect(res.status).toBe(401);
    expect(sign(secret, res.body.response)).toBe(res.body.signature);
    expect(JSON.parse(res.body.response)).toEqual({ Error: { Code: code, Message: expect.any(String), RequestId: expect.any(String) } });
  });

  it('an invalid field is a signed 400 RequestInvalid naming it', async () => {
    await expect(client().badge({ Theme: 'blue' as 'light' })).rejects.toMatchObject({ status: 400, code: 'RequestInvalid', message: expect.stringMatching(/Theme/) });
    await expect(client().get('badge', { Unknown: 1 })).rejects.toMatchObject({ code: 'RequestInvalid', message: expect.stringMatching(/Unknown/) });
  });

  it('the client refuses an answer whose signature does not verify', async () => {
    const tampering: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const body = await res.json();
      body.response = body.response.replace('Tom', 'Eve');
      return new Response(JSON.stringify(body), { status: res.status, headers: res.headers });
    };
    const c = new CheckoutClient({ baseUrl: base, merchantId, signingSecret: secret, fetch: tampering });
    await expect(c.badge()).rejects.toMatchObject({ code: 'ResponseSignatureInvalid' });
  });

  it('after a secret rotation: the old secret is accepted during the overlap only, answers are signed with the new one', async () => {
    const { merchant, signingSecret: oldSecret } = await t.app.get(MerchantService).create({ name: 'Rotating Shop' });
    const rotated = await t.app.get(SigningSecretService).rotate(merchant.id);
    const call = (signingSecret: string) =>
      new CheckoutClient({ baseUrl: base, merchantId: merchant.id, signingSecret }).badge();

    // Inside the overlap: a request signed with the old secret is served, but the answer is signed with the new one.
    const text = JSON.stringify({ MerchantId: merchant.id });
    const res = await fetch(`${base}/badge?${new URLSearchParams({ request: text, signature: sign(oldSecret, text) })}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.signature).toBe(sign(rotated.secret, body.response));
    await expect(call(rotated.secret)).resolves.toMatchObject({ MerchantName: 'Rotating Shop' });

    // After the overlap the old secret no longer works.
    await t.dataSource
      .createQueryBuilder()
      .update(SigningSecret)
      .set({ retiresAt: new Date(Date.now() - 1000) })
      .where('merchant_id = :id AND retires_at IS NOT NULL', { id: merchant.id })
      .execute();
    const after = await fetch(`${base}/badge?${new URLSearchParams({ request: text, signature: sign(oldSecret, text) })}`);
    expect(after.status).toBe(401);
    expect(JSON.parse((await after.json()).response).Error.Code).toBe('SignatureInvalid');
    await expect(call(rotated.secret)).resolves.toMatchObject({ MerchantName: 'Rotating Shop' });
  });

  it('CheckoutClientError carries the status and code', () => {
    const error = new CheckoutClientError(401, 'SignatureInvalid', 'x');
    expect(error.message).toBe('401 SignatureInvalid: x');
  });
});
