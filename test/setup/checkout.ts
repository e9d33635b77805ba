import { AddressInfo } from 'node:net';
import { MerchantService } from '../../src/auth/merchant.service';
import { CardParams, CheckoutClient, CheckoutParams } from '../../src/checkout/client/checkout-client';
import { startTestApp, TestApp } from './test-app';

/** The sandbox processor's test cards (DESIGN.md section 5). */
export const CARDS = {
  visa: '4111111111111111',
  mastercard: '5555555555554444',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  challenge: '4000000000003220',
} as const;

export const card = (number: string = CARDS.visa, overrides: Partial<CardParams> = {}): CardParams => ({
  Name: 'Ada Shopper',
  Number: number,
  VerificationCode: '123',
  Expiry: { Month: 12, Year: new Date().getUTCFullYear() + 3 },
  ...overrides,
});

let references = 0;

/** A valid checkout: 2 × 10.00 + 5.00 shipping + 1.50 taxes − 2.00 discount = 24.50 USD, by Visa in the US. */
export const checkoutParams = (overrides: Partial<CheckoutParams> = {}): CheckoutParams => ({
  ReferenceId: `order-${Date.now()}-${++references}`,
  PaymentMethod: 'VISA',
  ConsumerCurrency: 'USD',
  ConsumerTotal: '24.50',
  Items: [{ Sku: 'SKU-1', Description: 'Mug', ConsumerPrice: '10.00', Quantity: '2' }],
  Shipping: { ConsumerPrice: '5.00', ConsumerTaxes: '1.50' },
  Discounts: [{ Name: 'Welcome', ConsumerPrice: '2.00' }],
  Consumer: { Name: 'Ada Shopper', Email: 'ada@example.com', Address: '1 Main St', City: 'Springfield', Region: 'IL', PostalCode: '62701', Country: 'US' },
  ...overrides,
});

export interface CheckoutTestApp {
  t: TestApp;
  base: string;
  origin: string;
  merchantId: string;
  secret: string;
  client: (options?: { encoding?: 'form' | 'json'; replayProtection?: boolean }) => CheckoutClient;
  /** Another merchant with its own client (tenant isolation). */
  otherMerchant: () => Promise<CheckoutClient>;
}

/** The whole service listening on a loopback port, with one merchant and a signed client for it. */
export async function startCheckoutApp(env: Record<string, string> = {}): Promise<CheckoutTestApp> {
  const t = await startTestApp(env);
  await t.app.listen(0, '127.0.0.1');
  const origin = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  const base = `${origin}/v2.22`;
  const { merchant, signingSecret } = await t.app.get(MerchantService).create({ name: 'Checkout Test Shop' });
  return {
    t,
    base,
    origin,
    merchantId: merchant.id,
    secret: signingSecret,
    client: (options = {}) => new CheckoutClient({ baseUrl: base, merchantId: merchant.id, signingSecret, ...options }),
    otherMerchant: async () => {
      const other = await t.app.get(MerchantService).create({ name: 'Other Shop' });
      return new CheckoutClient({ baseUrl: base, merchantId: other.merchant.id, signingSecret: other.signingSecret });
    },
  };
}
