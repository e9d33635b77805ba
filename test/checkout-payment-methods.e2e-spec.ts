import { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';
import { MerchantService } from '../src/auth/merchant.service';
import { CheckoutClient } from '../src/checkout/client/checkout-client';
import { startTestApp, TestApp } from './setup/test-app';

const sign = (secret: string, text: string) => createHmac('sha256', secret).update(text, 'utf8').digest('base64');

describe('Checkout interface: getPaymentMethods', () => {
  let t: TestApp;
  let base: string;
  let merchantId: string;
  let secret: string;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}/v2.22`;
    const created = await t.app.get(MerchantService).create({ name: 'Methods Shop' });
    merchantId = created.merchant.id;
    secret = created.signingSecret;
  });
  afterAll(() => t.close());

  const client = (overrides: Partial<{ signingSecret: string; encoding: 'form' | 'json' }> = {}) =>
    new CheckoutClient({ baseUrl: base, merchantId, signingSecret: secret, ...overrides });
  const names = async (params: { Country: string; Currency: string; ViaAgent?: boolean }) =>
    (await client().paymentMethods(params)).PaymentMethods.map((m) => m.Name);

  it('BR/BRL: cards including the Brazilian brands, then PayPal and Pix, then Boleto', async () => {
    const { PaymentMethods } = await client().paymentMethods({ Country: 'BR', Currency: 'BRL' });
    expect(PaymentMethods.map((m) => m.Name)).toEqual(['VISA', 'MC', 'AMEX', 'JCB', 'DINERS', 'ELO', 'HIPERCARD', 'PAYPAL', 'PIX', 'BOLETO']);
    expect(PaymentMethods[0]).toEqual({ Name: 'VISA', Class: 'Card', Label: 'Visa', DelayedCapture: true });
    expect(PaymentMethods.find((m) => m.Name === 'PIX')).toEqual({ Name: 'PIX', Class: 'Online', Label: 'Pix', DelayedCapture: false });
    expect(PaymentMethods.find((m) => m.Name === 'BOLETO')).toMatchObject({ Class: 'Offline', DelayedCapture: false });
  });

  it.each([
    ['MX', 'MXN', ['OXXO', 'BANK_TRANSFER'], ['BOLETO', 'IDEAL']],
    ['NL', 'EUR', ['IDEAL', 'MAESTRO', 'BANK_TRANSFER'], ['OXXO', 'BOLETO']],
    ['US', 'USD', ['VISA', 'DISCOVER', 'PAYPAL', 'BANK_TRANSFER'], ['BOLETO', 'OXXO', 'IDEAL', 'PIX']],
    ['BR', 'USD', ['VISA', 'PAYPAL'], ['BOLETO', 'PIX', 'ELO']],
  ])('%s/%s offers %j and not %j', async (Country, Currency, included, excluded) => {
    const offered = await names({ Country, Currency });
    for (const name of included) expect(offered).toContain(name);
    for (const name of excluded) expect(offered).not.toContain(name);
  });

  it('answers cards first, then online, then offline', async () => {
    const rank = { Card: 0, Online: 1, Offline: 2 };
    const { PaymentMethods } = await client().paymentMethods({ Country: 'NL', Currency: 'EUR' });
    const ranks = PaymentMethods.map((m) => rank[m.Class]);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(new Set(ranks)).toEqual(new Set([0, 1, 2]));
  });

  it('ViaAgent: cards only (no Maestro, no redirect or offline methods)', async () => {
    const { PaymentMethods } = await client().paymentMethods({ Country: 'NL', Currency: 'EUR', ViaAgent: true });
    expect(PaymentMethods.length).toBeGreaterThan(0);
    expect(PaymentMethods.every((m) => m.Class === 'Card' && m.DelayedCapture)).toBe(true);
    expect(PaymentMethods.map((m) => m.Name)).not.toContain('MAESTRO');
    expect(await names({ Country: 'BR', Currency: 'BRL', ViaAgent: false })).toContain('BOLETO');
  });

  it.each(['form', 'json'] as const)('takes a POST as a %s envelope', async (encoding) => {
    const body = await client({ encoding }).post<{ PaymentMethods: { Name: string }[] }>('getPaymentMethods', { Country: 'MX', Currency: 'MXN' });
    expect(body.PaymentMethods.map((m) => m.Name)).toContain('OXXO');
  });

  it.each([
    ['an unknown country XX', 'CountryInvalid', { Country: 'XX', Currency: 'USD' }, /XX/],
    ['an unsupported currency XAU', 'CurrencyNotFound', { Country: 'US', Currency: 'XAU' }, /XAU/],
    ['a malformed Currency', 'RequestInvalid', { Country: 'US', Currency: 'usd' }, /Currency/],
    ['a malformed Country', 'RequestInvalid', { Country: 'USA', Currency: 'USD' }, /Country/],
    ['no Country', 'RequestInvalid', { Currency: 'USD' }, /Country/],
    ['no Currency', 'RequestInvalid', { Country: 'US' }, /Currency/],
    ['ViaAgent not a boolean', 'RequestInvalid', { Country: 'US', Currency: 'USD', ViaAgent: 'yes' }, /ViaAgent/],
    ['an unknown field', 'RequestInvalid', { Country: 'US', Currency: 'USD', Amount: 10 }, /Amount/],
  ])('%s: a signed 400 %s', async (_, code, params, message) => {
    await expect(client().get('getPaymentMethods', params)).rejects.toMatchObject({ status: 400, code, message: expect.stringMatching(message) });
  });

  it('a wrong signature: a signed 401 SignatureInvalid', async () => {
    await expect(client({ signingSecret: 'another-secret' }).paymentMethods({ Country: 'US', Currency: 'USD' })).rejects.toMatchObject({
      // The client cannot verify an answer signed with the real secret either: check the raw answer.
      code: 'ResponseSignatureInvalid',
    });
    const text = JSON.stringify({ MerchantId: merchantId, Country: 'US', Currency: 'USD' });
    const res = await fetch(`${base}/getPaymentMethods?${new URLSearchParams({ request: text, signature: sign('another-secret', text) })}`);
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(sign(secret, body.response)).toBe(body.signature);
    expect(JSON.parse(body.response)).toEqual({ Error: { Code: 'SignatureInvalid', Message: expect.any(String), RequestId: expect.any(String) } });
  });
});
