import { execFile } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CheckoutClient, CheckoutClientError } from '../src/checkout/client/checkout-client';
import { Clock } from '../src/common/clock/clock';
import { OrderService } from '../src/orders/order.service';
import { OrderPaymentService } from '../src/orders/order-payment.service';
import { SandboxLedgerEntry } from '../src/orders/processor/sandbox-ledger.entity';
import { card, CARDS, checkoutParams, CheckoutTestApp, startCheckoutApp } from './setup/checkout';

const DAY = 24 * 3600 * 1000;

/** The error a call was refused with (the client verified the signed error body first). */
async function refusal(call: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof CheckoutClientError) return { status: error.status, code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected the call to be refused');
}

describe('Checkout interface: checkout, capture, cancel, refund, query', () => {
  let c: CheckoutTestApp;
  let client: CheckoutClient;

  beforeAll(async () => {
    c = await startCheckoutApp({ MOR_NAME: 'Example MoR Ltd.' });
    client = c.client();
  });
  afterAll(() => c.t.close());

  /** The command line, as an operator runs it against the same database. */
  const cli = async (...args: string[]) => {
    const { stdout } = await promisify(execFile)('node', [join(__dirname, '..', 'scripts/cli.js'), ...args], { env: { ...process.env, ...c.t.env, LOG_LEVEL: 'silent' } });
    return JSON.parse(stdout);
  };
  const local = (url: string) => url.replace(/^http:\/\/localhost:\d+/, c.origin);
  const ledger = (orderId: string, operation: string) => c.t.dataSource.getRepository(SandboxLedgerEntry).countBy({ orderId, operation: operation as never });

  describe('card payments', () => {
    it('captures at once by default and shows the order with card brand and last four only', async () => {
      const params = checkoutParams();
      const answer = await client.checkout(params, card());
      expect(answer).toEqual({ OrderId: expect.any(String), Authorized: true, Completed: true, UnderReview: false });

      const order = await client.query({ OrderId: answer.OrderId });
      expect(order).toMatchObject({
        OrderId: answer.OrderId,
        ReferenceId: params.ReferenceId,
        OrderState: 'Processed',
        Captured: true,
        ConsumerTotal: '24.50',
        ConsumerCurrency: 'USD',
        PaymentMethod: 'VISA',
        Card: { Brand: 'VISA', Last4: '1111' },
        Refunds: [],
      });
      expect(await client.query({ ReferenceId: params.ReferenceId })).toEqual(order);
      expect(await ledger(answer.OrderId, 'capture')).toBe(1);
    });

    it('works the same with a JSON envelope and a Mastercard', async () => {
      const answer = await c.client({ encoding: 'json' }).checkout(checkoutParams({ PaymentMethod: 'MC' }), card(CARDS.mastercard));
      expect(answer.Completed).toBe(true);
    });

    it('authorizes with Capture=false, holds 7 days, captures once however often asked', async () => {
      const before = Date.now();
      const answer = await client.checkout(checkoutParams({ Capture: false }), card());
      expect(answer).toMatchObject({ Authorized: true, Completed: false });
      const expiry = new Date(answer.Expiry!).getTime();
      expect(expiry - before).toBeGreaterThanOrEqual(7 * DAY - 1000);
      expect(expiry - before).toBeLessThanOrEqual(7 * DAY + 5000);
      expect((await client.query({ OrderId: answer.OrderId })).OrderState).toBe('PaymentAuthorized');

      const captures = await Promise.all(Array.from({ length: 6 }, () => client.capture(answer.OrderId).then((r) => r, (e) => e)));
      for (const result of captures) expect(result).toEqual({ OrderId: answer.OrderId, OrderState: 'Processed' });
      expect(await client.capture(answer.OrderId)).toEqual({ OrderId: answer.OrderId, OrderState: 'Processed' });
      expect(await ledger(answer.OrderId, 'capture')).toBe(1);
      const events = await c.t.dataSource.query('SELECT to_state FROM order_event WHERE order_id = ? ORDER BY sequence', [answer.OrderId]);
      expect(events.map((e: { to_state: string }) => e.to_state)).toEqual(['Processing', 'PaymentAuthorized', 'Processing', 'Processed']);
    });

    it('answers AlreadyCancelled to a capture after the 7-day expiry, and the job cancels the rest', async () => {
      const late = await client.checkout(checkoutParams({ Capture: false }), card());
      const forgotten = await client.checkout(checkoutParams({ Capture: false }), card());
      c.t.app.get(Clock).travel(7 * DAY + 1000);
      // A client in the service's future: its Timestamps would be from the past, so it sends none.
      const later = c.client({ replayProtection: false });
      try {
        expect(await refusal(later.capture(late.OrderId))).toMatchObject({ status: 409, code: 'AlreadyCancelled' });
        expect((await later.query({ OrderId: late.OrderId })).OrderState).toBe('Cancelled');
        expect(await ledger(late.OrderId, 'capture')).toBe(0);

        c.t.app.get(Clock).travel(2 * 60 * 1000); // past the job's grace period
        expect(await c.t.app.get(OrderService).expireAuthorizations()).toBeGreaterThanOrEqual(1);
        expect((await later.query({ OrderId: forgotten.OrderId })).OrderState).toBe('Cancelled');
        expect(await ledger(forgotten.OrderId, 'void')).toBe(1);
      } finally {
        c.t.app.get(Clock).travel(-(7 * DAY + 1000 + 2 * 60 * 1000));
      }
    });

    it('cancels an authorization; then capture is AlreadyCancelled and cancel of a captured order AlreadyCaptured', async () => {
      const held = await client.checkout(checkoutParams({ Capture: false }), card());
      expect(await client.cancel(held.OrderId)).toEqual({ OrderId: held.OrderId, OrderState: 'Cancelled' });
      expect(await client.cancel(held.OrderId)).toEqual({ OrderId: held.OrderId, OrderState: 'Cancelled' });
      expect(await refusal(client.capture(held.OrderId))).toMatchObject({ status: 409, code: 'AlreadyCancelled' });
      expect(await refusal(client.refund({ OrderId: held.OrderId, ReferenceId: 'r1', Amount: '1.00' }))).toMatchObject({ code: 'OrderStateInvalid' });

      const paid = await client.checkout(checkoutParams(), card());
      expect(await refusal(client.cancel(paid.OrderId))).toMatchObject({ status: 409, code: 'AlreadyCaptured' });
    });

    it('refuses a declined card with PaymentAuthorizationFailed and lets the same ReferenceId try another card', async () => {
      const params = checkoutParams();
      expect(await refusal(client.checkout(params, card(CARDS.declined)))).toMatchObject({ status: 402, code: 'PaymentAuthorizationFailed' });
      const failed = await client.query({ ReferenceId: params.ReferenceId });
      expect(failed.OrderState).toBe('ProcessingFailed');

      const insufficient = await refusal(client.checkout(params, card(CARDS.insufficientFunds)));
      expect(insufficient).toMatchObject({ status: 402, code: 'PaymentAuthorizationFailed' });
      expect(insufficient.message).toMatch(/insufficient funds/);

      const retried = await client.checkout(params, card());
      expect(retried).toMatchObject({ OrderId: failed.OrderId, Authorized: true, Completed: true });
      expect((await client.query({ ReferenceId: params.ReferenceId })).Card).toEqual({ Brand: 'VISA', Last4: '1111' });
    });

    it('replays the answer to the same request under one ReferenceId and refuses a different one', async () => {
      const params = checkoutParams();
      const first = await client.checkout(params, card());
      expect(await client.checkout(params, card())).toEqual(first);
      expect(await refusal(client.checkout({ ...params, ConsumerTotal: '25.50', Shipping: { ConsumerPrice: '6.00', ConsumerTaxes: '1.50' } }, card()))).toMatchObject({
        status: 409,
        code: 'ReferenceIdMismatch',
      });
    });

    it('sends a 3-D Secure card to a challenge and returns the shopper to Return with a signed response', async () => {
      const answer = await client.checkout(checkoutParams({ Capture: false, Return: 'https://shop.example/return?step=3ds' }), card(CARDS.challenge));
      expect(answer).toMatchObject({ Authorized: false, Completed: false, Action: { Challenge: expect.stringMatching(/\/pay\/order\//) } });
      const url = local((answer.Action as { Challenge: string }).Challenge);
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('3-D Secure');
      expect((await fetch(url.replace(/token=[^&]+/, 'token=wrong'))).status).toBe(404);

      const token = new URL(url).searchParams.get('token')!;
      const done = await fetch(url.split('?')[0], { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `token=${token}&decision=approve` });
      const html = await done.text();
      const target = new URL(html.match(/id="return" href="([^"]+)"/)![1].replace(/&amp;/g, '&'));
      expect(target.origin + target.pathname).toBe('https://shop.example/return');
      expect(target.searchParams.get('step')).toBe('3ds');
      const response = target.searchParams.get('response')!;
      expect(target.searchParams.get('signature')).toBe(createHmac('sha256', c.secret).update(response).digest('base64'));
      expect(JSON.parse(response)).toMatchObject({ OrderId: answer.OrderId, OrderState: 'PaymentAuthorized' });
      // The link works once.
      expect((await fetch(url)).status).toBe(404);
    });
  });

  describe('fraud review (sandbox: totals ending in 66 minor units)', () => {
    const reviewed = () => checkoutParams({ ConsumerTotal: '10.66', Items: [{ Sku: 'R', ConsumerPrice: '10.66', Quantity: '1' }], Shipping: undefined, Discounts: undefined });

    it('holds the order under review: no capture until the review approves, then it captures as asked', async () => {
      const answer = await client.checkout(reviewed(), card());
      expect(answer).toMatchObject({ Authorized: true, Completed: false, UnderReview: true });
      expect(await refusal(client.capture(answer.OrderId))).toMatchObject({ status: 409, code: 'UnderReview' });
      const settled = await cli('orders', 'review', '--order', answer.OrderId, '--approve');
      expect(settled).toEqual({ OrderId: answer.OrderId, OrderState: 'Processed', UnderReview: false });
      expect(await client.query({ OrderId: answer.OrderId })).toMatchObject({ OrderState: 'Processed', UnderReview: false });
    });

    it('declines the order when the review rejects it: capture and cancel answer AlreadyDeclined', async () => {
      const answer = await client.checkout({ ...reviewed(), Capture: false }, card());
      await c.t.app.get(OrderService).settleReview(answer.OrderId, false);
      expect((await client.query({ OrderId: answer.OrderId })).OrderState).toBe('Declined');
      expect(await refusal(client.capture(answer.OrderId))).toMatchObject({ status: 409, code: 'AlreadyDeclined' });
      expect(await refusal(client.cancel(answer.OrderId))).toMatchObject({ status: 409, code: 'AlreadyDeclined' });
      expect(await refusal(client.refund({ OrderId: answer.OrderId, ReferenceId: 'r', Amount: '1.00' }))).toMatchObject({ code: 'OrderStateInvalid' });
      expect(await ledger(answer.OrderId, 'void')).toBe(1);
    });
  });

  describe('redirect and offline methods', () => {
    it('sends PayPal shoppers to an approval page; declining there fails the order', async () => {
      const answer = await client.checkout(checkoutParams({ PaymentMethod: 'PAYPAL' }));
      expect(answer.Action).toEqual({ Redirect: expect.stringMatching(/\/pay\/order\/.+\?token=/) });
      const url = new URL(local((answer.Action as { Redirect: string }).Redirect));
      const done = await fetch(url.origin + url.pathname, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `token=${url.searchParams.get('token')}&decision=decline`,
      });
      expect(await done.text()).toContain('not completed');
      expect((await client.query({ OrderId: answer.OrderId })).OrderState).toBe('ProcessingFailed');
    });

    it('shows bank details for a bank transfer and stays Pending until the funds arrive', async () => {
      const params = checkoutParams({
        PaymentMethod: 'BANK_TRANSFER',
        ConsumerCurrency: 'EUR',
        Consumer: { Name: 'Jan de Vries', Email: 'jan@example.nl', Country: 'NL' },
      });
      const answer = await client.checkout(params);
      expect(answer).toMatchObject({ Authorized: false, Completed: false });
      const bank = (answer.Action as { Display: { BankDetails: Record<string, string> } }).Display.BankDetails;
      expect(bank).toMatchObject({ AccountHolder: 'Example MoR Ltd.', PaymentReference: params.ReferenceId, Iban: expect.stringMatching(/^DE\d{20}$/) });
      expect(ibanIsValid(bank.Iban)).toBe(true);
      expect((await client.query({ OrderId: answer.OrderId })).BankDetails).toEqual(bank);

      // The sandbox's "the money arrived", as an operator runs it.
      expect(await cli('orders', 'funds-received', '--order', answer.OrderId)).toEqual({ OrderId: answer.OrderId, OrderState: 'Processed' });
      expect((await client.query({ OrderId: answer.OrderId })).OrderState).toBe('Processed');
      await expect(c.t.app.get(OrderPaymentService).fundsReceived(answer.OrderId)).rejects.toThrow(/not waiting for funds/);
    });
  });

  describe('contracts', () => {
    it('opens a contract with a card and charges it later without the shopper', async () => {
      const opened = await client.checkout(checkoutParams({ OpenContract: true }), card(CARDS.challenge.replace('3220', '3220')));
      // A 3-D Secure card opens its contract once the shopper passed the challenge.
      const url = new URL(local((opened.Action as { Challenge: string }).Challenge));
      await fetch(url.origin + url.pathname, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `token=${url.searchParams.get('token')}&decision=approve` });
      const { ContractId } = await client.query({ OrderId: opened.OrderId });
      expect(ContractId).toEqual(expect.any(String));

      const charged = await client.checkout(checkoutParams({ ContractId }));
      expect(charged).toMatchObject({ Authorized: true, Completed: true, ContractId });
      expect((await client.query({ OrderId: charged.OrderId })).Card).toEqual({ Brand: 'VISA', Last4: '3220' });

      expect(await refusal(client.checkout(checkoutParams({ ContractId }), card()))).toMatchObject({ code: 'RequestInvalid' });
      expect(await refusal(client.checkout(checkoutParams({ ContractId: '00000000-0000-4000-8000-000000000000' })))).toMatchObject({ code: 'ContractNotFound' });
      expect(await refusal((await c.otherMerchant()).checkout(checkoutParams({ ContractId })))).toMatchObject({ code: 'ContractNotFound' });
    });
  });

  describe('refunds', () => {
    it('refunds partly and repeatedly up to the captured amount, with ReferenceId as idempotency key', async () => {
      const paid = await client.checkout(checkoutParams(), card());
      const first = await client.refund({ OrderId: paid.OrderId, ReferenceId: 'rf-1', Amount: '10.00' });
      expect(await client.refund({ OrderId: paid.OrderId, ReferenceId: 'rf-1', Amount: '10.00' })).toEqual(first);
      expect(await refusal(client.refund({ OrderId: paid.OrderId, ReferenceId: 'rf-1', Amount: '9.00' }))).toMatchObject({ status: 409, code: 'ReferenceIdMismatch' });
      await client.refund({ OrderId: paid.OrderId, ReferenceId: 'rf-2', Amount: '14.49' });
      expect(await refusal(client.refund({ OrderId: paid.OrderId, ReferenceId: 'rf-3', Amount: '0.02' }))).toMatchObject({ status: 409, code: 'RefundLimitExceeded' });
      await client.refund({ OrderId: paid.OrderId, ReferenceId: 'rf-4', Amount: '0.01' });

      const order = await client.query({ OrderId: paid.OrderId });
      expect(order.RefundedAmount).toBe('24.50');
      expect(order.Refunds.map((r) => [r.ReferenceId, r.Amount, r.State])).toEqual([
        ['rf-1', '10.00', 'Succeeded'],
        ['rf-2', '14.49', 'Succeeded'],
        ['rf-4', '0.01', 'Succeeded'],
      ]);
      expect(order.OrderState).toBe('Processed');
    });

    it('records a refund the processor refuses as Failed and frees its amount', async () => {
      const paid = await client.checkout(checkoutParams(), card());
      const failed = await client.refund({ OrderId: paid.OrderId, ReferenceId: 'fails', Amount: '24.13' });
      let order = await client.query({ OrderId: paid.OrderId });
      expect(order.Refunds).toEqual([expect.objectContaining({ RefundId: failed.RefundId, State: 'Failed', Reason: expect.any(String) })]);
      await client.refund({ OrderId: paid.OrderId, ReferenceId: 'works', Amount: '24.50' });
      order = await client.query({ OrderId: paid.OrderId });
      expect(order.RefundedAmount).toBe('24.50');
    });

    it('checks refund amounts in the order currency', async () => {
      const paid = await client.checkout(checkoutParams(), card());
      for (const Amount of ['0', '0.00', '1.001', '-1', 'abc']) {
        expect(await refusal(client.refund({ OrderId: paid.OrderId, ReferenceId: `bad-${Amount}`, Amount }))).toMatchObject({ status: 400 });
      }
      expect(await refusal(client.refund({ OrderId: paid.OrderId, ReferenceId: 'x', Amount: '1.001' }))).toMatchObject({ code: 'AmountInvalid' });
    });
  });

  describe('what checkout refuses', () => {
    const cases: [string, Partial<Parameters<typeof checkoutParams>[0]>, string][] = [
      ['a total that does not add up', { ConsumerTotal: '24.49' }, 'ConsumerTotalInvalid'],
      ['more decimals than the currency has', { ConsumerCurrency: 'JPY', ConsumerTotal: '2450', Items: [{ Sku: 'A', ConsumerPrice: '10.5', Quantity: '1' }] }, 'AmountInvalid'],
      ['an unsupported currency', { ConsumerCurrency: 'XAU' }, 'CurrencyNotFound'],
      ['an unknown country', { Consumer: { Name: 'A', Email: 'a@example.com', Country: 'XX' } }, 'CountryInvalid'],
      ['a method not offered there', { PaymentMethod: 'PIX' }, 'PaymentMethodUnsupported'],
      ['an unknown method', { PaymentMethod: 'BITCOIN' }, 'PaymentMethodUnsupported'],
      ['an unknown rate offer', { RateOfferId: '00000000-0000-4000-8000-000000000000' }, 'RateOfferNotFound'],
      ['an unknown device fingerprint', { DeviceFingerprint: '00000000-0000-4000-8000-000000000000' }, 'DeviceFingerprintInvalid'],
      ['no items', { Items: [] }, 'RequestInvalid'],
      ['a bad e-mail address', { Consumer: { Name: 'A', Email: 'not-an-email', Country: 'US' } }, 'RequestInvalid'],
    ];
    it.each(cases)('refuses %s', async (_, overrides, code) => {
      const error = await refusal(client.checkout(checkoutParams(overrides), card()));
      expect(error.code).toBe(code);
      expect(error.status).toBeGreaterThanOrEqual(400);
      expect(error.status).toBeLessThan(500);
    });

    const cardCases: [string, ReturnType<typeof card>, string][] = [
      ['a number failing the Luhn check', card('4111111111111112'), 'CardNumberInvalid'],
      ['an expired card', card(CARDS.visa, { Expiry: { Month: 1, Year: 2020 } }), 'CardExpired'],
      ['a month 13', card(CARDS.visa, { Expiry: { Month: 13, Year: 2030 } }), 'CardMonthInvalid'],
      ['a two-digit code on Visa… of one digit', card(CARDS.visa, { VerificationCode: '1' }), 'CardVerificationCodeInvalid'],
      ['an empty name', card(CARDS.visa, { Name: ' ' }), 'CardNameInvalid'],
      ['a Mastercard sent as VISA', card(CARDS.mastercard), 'PaymentMethodMismatch'],
    ];
    it.each(cardCases)('refuses %s', async (_, badCard, code) => {
      expect((await refusal(client.checkout(checkoutParams(), badCard))).code).toBe(code);
    });

    it('needs the card field for a card method and refuses it for others', async () => {
      expect((await refusal(client.checkout(checkoutParams()))).code).toBe('CardNumberInvalid');
      expect((await refusal(client.checkout(checkoutParams({ PaymentMethod: 'PAYPAL' }), card()))).code).toBe('RequestInvalid');
    });

    it('applies a fresh rate offer, and refuses one of another currency or past its expiry', async () => {
      const { RateOffers } = await client.getRates();
      const eur = RateOffers!.find((offer) => offer.Currency === 'EUR')!;
      const gbp = RateOffers!.find((offer) => offer.Currency === 'GBP')!;
      const inEuros = (overrides = {}) => checkoutParams({ ConsumerCurrency: 'EUR', ...overrides });
      const answer = await client.checkout(inEuros({ RateOfferId: eur.Id }), card());
      expect(await client.query({ OrderId: answer.OrderId })).toMatchObject({ RateOfferId: eur.Id, Rate: expect.any(String) });
      expect((await refusal(client.checkout(inEuros({ RateOfferId: gbp.Id }), card()))).code).toBe('CurrencyMismatch');
      c.t.app.get(Clock).travel(25 * 3600 * 1000);
      try {
        const later = c.client({ replayProtection: false });
        expect((await refusal(later.checkout(inEuros({ RateOfferId: eur.Id }), card()))).code).toBe('RateOfferNotFound');
      } finally {
        c.t.app.get(Clock).travel(-25 * 3600 * 1000);
      }
    });

    it('leaves nothing behind when it refuses', async () => {
      const before = await c.t.dataSource.query('SELECT COUNT(*) AS n FROM payment_order');
      await refusal(client.checkout(checkoutParams({ ConsumerTotal: '1.00' }), card()));
      await refusal(client.checkout(checkoutParams(), card('4111111111111112')));
      expect(await c.t.dataSource.query('SELECT COUNT(*) AS n FROM payment_order')).toEqual(before);
    });
  });

  describe('tenant isolation', () => {
    it("reports another merchant's order as not found for every operation", async () => {
      const paid = await client.checkout(checkoutParams({ Capture: false }), card());
      const other = await c.otherMerchant();
      for (const call of [other.capture(paid.OrderId), other.cancel(paid.OrderId), other.query({ OrderId: paid.OrderId }), other.refund({ OrderId: paid.OrderId, ReferenceId: 'x', Amount: '1.00' })]) {
        expect(await refusal(call)).toMatchObject({ status: 404, code: 'OrderNotFound' });
      }
      expect((await client.query({ OrderId: paid.OrderId })).OrderState).toBe('PaymentAuthorized');
    });
  });
});

/** ISO 13616: move the first four characters to the end, letters to numbers, mod 97 must be 1. */
function ibanIsValid(iban: string): boolean {
  const rearranged = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  return BigInt(rearranged) % 97n === 1n;
}

describe('Checkout in production without a processor adapter', () => {
  let c: CheckoutTestApp;
  beforeAll(async () => {
    c = await startCheckoutApp({ APP_ENV: 'production', TRUST_PROXY: '1', SECRETS_KEY: randomBytes(32).toString('base64') });
  });
  afterAll(() => c.t.close());

  it('refuses payments plainly (503 ServiceUnavailable) instead of simulating them, and stores nothing', async () => {
    const viaProxy: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as object), 'X-Forwarded-Proto': 'https' } });
    const client = new CheckoutClient({ baseUrl: c.base, merchantId: c.merchantId, signingSecret: c.secret, fetch: viaProxy });
    expect(await refusal(client.checkout(checkoutParams(), card()))).toMatchObject({ status: 503, code: 'ServiceUnavailable' });
    expect(await c.t.dataSource.query('SELECT id FROM payment_order')).toEqual([]);
    expect(await c.t.dataSource.query('SELECT token FROM card_token')).toEqual([]);
  });
});
