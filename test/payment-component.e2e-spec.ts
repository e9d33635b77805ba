import { readFileSync } from 'node:fs';
import { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { OrderPaymentService } from '../src/orders/order-payment.service';
import { PaymentSession } from '../src/session/session.entity';
import { artifactPath, freePort, launchBrowser, MerchantSite, startMerchantSite } from './setup/browser';
import { CARDS } from './setup/checkout';
import { sessionBody, VALID_PROFILES } from './setup/factories';
import { Credentials, startTestApp, TestApp } from './setup/test-app';

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

describe('Payment component: the shopper pays a session in a real browser', () => {
  let t: TestApp;
  let origin: string;
  let site: MerchantSite;
  let merchant: Credentials;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    t = await startTestApp({ PORT: String(port), PUBLIC_URL: origin, MOR_NAME: 'Example MoR Ltd.' });
    await t.app.listen(port, '127.0.0.1');
    site = await startMerchantSite(origin);
    merchant = await t.merchantUser();
    browser = await launchBrowser();
    context = await browser.newContext();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await t?.close();
  });

  const createSession = async (overrides: Record<string, unknown> = {}) => {
    const res = await t
      .http()
      .post('/v2.22/session')
      .auth(merchant.username, merchant.password)
      .send(sessionBody({ CompleteUrl: `${site.origin}/complete?session={SessionId}`, CancelUrl: `${site.origin}/cart`, ...overrides }));
    expect(res.status).toBe(201);
    return res.body.SessionId as string;
  };
  const getSession = async (id: string) => (await t.http().get(`/v2.22/session/${id}`).auth(merchant.username, merchant.password)).body;

  const openCheckout = async (sessionId: string, query = '', on: BrowserContext = context): Promise<{ page: Page; frame: FrameLocator }> => {
    const page = await on.newPage();
    await page.goto(`${site.origin}/checkout?session=${sessionId}${query}`);
    const frame = page.frameLocator('iframe[title="Payment"]');
    await frame.getByRole('button', { name: 'Pay', exact: true }).or(frame.getByRole('heading')).first().waitFor();
    return { page, frame };
  };
  const fillCard = async (frame: FrameLocator, number: string, overrides: { expiry?: string; cvc?: string } = {}) => {
    await frame.getByLabel('Name on card').fill('Ada Shopper');
    await frame.getByLabel('Card number').fill(number);
    await frame.getByLabel('Expiry date').fill(overrides.expiry ?? `12/${String(new Date().getUTCFullYear() + 3).slice(2)}`);
    await frame.getByLabel('Security code').fill(overrides.cvc ?? '123');
  };
  const pay = (frame: FrameLocator) => frame.getByRole('button', { name: 'Pay', exact: true }).click();

  it('shows the order, the merchant-of-record disclaimer in full and the methods, then pays by card and lands on CompleteUrl', async () => {
    const id = await createSession();
    const { page, frame } = await openCheckout(id);
    await expect(frame.getByRole('cell', { name: '$19.99' }).first().isVisible()).resolves.toBe(true);
    const disclaimer = await frame.getByLabel('Merchant of record').innerText();
    expect(disclaimer).toContain('Example MoR Ltd. is the merchant of record for this order');
    expect(disclaimer).toContain('Your card statement will show Example MoR Ltd.');
    await expect(frame.getByRole('radio', { name: /Card/ }).isChecked()).resolves.toBe(true);

    await fillCard(frame, CARDS.visa);
    await pay(frame);
    await page.waitForURL(`${site.origin}/complete?session=${id}`);
    const session = await getSession(id);
    expect(session).toMatchObject({
      State: 'COMPLETED',
      PaymentMethod: 'VISA',
      Order: { OrderId: expect.any(String), State: 'PROCESSED', MerchantReference: session.MerchantReference, SessionId: id },
    });
    await page.close();
  });

  it('respects AutoCapture=false: the order waits for capture', async () => {
    const id = await createSession({ AutoCapture: false });
    const { page, frame } = await openCheckout(id);
    await fillCard(frame, CARDS.mastercard);
    await pay(frame);
    await page.waitForURL(/\/complete/);
    expect((await getSession(id)).Order.State).toBe('PAYMENTAUTHORIZED');
    await page.close();
  });

  it('lets the shopper retry after a declined card, and makes one order', async () => {
    const id = await createSession();
    const { page, frame } = await openCheckout(id);
    await fillCard(frame, CARDS.declined);
    await pay(frame);
    await expect(frame.getByRole('alert').filter({ hasText: 'declined' }).waitFor()).resolves.toBeUndefined();
    expect((await getSession(id)).State).toBe('CREATED');

    await fillCard(frame, CARDS.visa);
    await pay(frame);
    await page.waitForURL(/\/complete/);
    expect((await getSession(id)).State).toBe('COMPLETED');
    const orders = await t.dataSource.query('SELECT attempts FROM payment_order WHERE session_id = ?', [id]);
    expect(orders).toHaveLength(1);
    expect(Number(orders[0].attempts)).toBe(2);
    await page.close();
  });

  it('checks the card in the page before sending anything, and the server checks again', async () => {
    const id = await createSession();
    const { page, frame } = await openCheckout(id);
    await fillCard(frame, '4111 1111 1111 1112', { expiry: '01/20', cvc: '1' });
    await pay(frame);
    await expect(frame.getByText('Enter a valid card number.').isVisible()).resolves.toBe(true);
    await expect(frame.getByText('This card has expired.').isVisible()).resolves.toBe(true);
    await expect(frame.getByLabel('Card number').getAttribute('aria-invalid')).resolves.toBe('true');
    expect((await getSession(id)).State).toBe('CREATED');

    const res = await t.http().post(`/pay/${id}`).send({ PaymentMethod: 'CARD', Card: { Name: 'A', Number: '4111111111111112', VerificationCode: '123', Expiry: { Month: 12, Year: 2040 } } });
    expect(res.status).toBe(400);
    expect(res.body.FieldErrors).toEqual([expect.objectContaining({ Field: 'Number', Code: 'CardNumberInvalid' })]);
    await page.close();
  });

  it('runs a 3-D Secure challenge inside the component, then completes', async () => {
    const id = await createSession();
    const { page, frame } = await openCheckout(id);
    await fillCard(frame, CARDS.challenge);
    await pay(frame);
    await frame.getByRole('heading', { name: '3-D Secure check' }).waitFor();
    const redirected = await getSession(id);
    expect(redirected).toMatchObject({ State: 'REDIRECTED', RedirectUrl: expect.stringContaining('/pay/order/') });
    await frame.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(/\/complete/);
    expect((await getSession(id)).State).toBe('COMPLETED');
    await page.close();
  });

  it('pays by bank transfer: shows the bank details, and the order shows them until the money arrives', async () => {
    const id = await createSession({ Currency: 'EUR', BillingProfile: VALID_PROFILES.DE });
    const { page, frame } = await openCheckout(id, '&locale=de-DE');
    await expect(frame.locator('#total').innerText()).resolves.toMatch(/19,99\s€/);
    await frame.getByRole('radio', { name: 'Bank transfer' }).check();
    await expect(frame.getByLabel('Card number').isVisible()).resolves.toBe(false);
    await pay(frame);
    await frame.getByRole('heading', { name: 'Bank transfer details' }).waitFor();
    const iban = await frame.locator('dd').filter({ hasText: /^DE\d{20}$/ }).innerText();
    await frame.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/complete/);
    const session = await getSession(id);
    expect(session).toMatchObject({ State: 'COMPLETED', PaymentMethod: 'BANK_TRANSFER', Order: { State: 'PENDING', BankDetails: { Iban: iban } } });
    await t.app.get(OrderPaymentService).fundsReceived(session.Order.OrderId);
    expect((await getSession(id)).Order.State).toBe('PROCESSED');
    await page.close();
  });

  it('sends the shopper to CancelUrl on Cancel, leaving the session open', async () => {
    const id = await createSession();
    const { page, frame } = await openCheckout(id);
    await frame.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(`${site.origin}/cart`);
    expect((await getSession(id)).State).toBe('CREATED');
    await page.close();
  });

  it('shows an honest page, never a form, for expired, cancelled and paid sessions', async () => {
    const expired = await createSession();
    await t.dataSource.getRepository(PaymentSession).update({ id: expired }, { expiresAt: new Date(Date.now() - 1000) });
    const cancelled = await createSession();
    await t.http().delete(`/v2.22/session/${cancelled}`).auth(merchant.username, merchant.password).expect(204);
    const paid = await createSession();
    expect((await t.http().post(`/pay/${paid}`).send({ PaymentMethod: 'CARD', Card: { Name: 'A', Number: CARDS.visa, VerificationCode: '123', Expiry: { Month: 12, Year: 2040 } } })).body.Outcome).toBe('COMPLETED');

    for (const [id, text] of [[expired, 'expired'], [cancelled, 'cancelled'], [paid, 'paid']]) {
      const { page, frame } = await openCheckout(id);
      await expect(frame.getByRole('main').innerText()).resolves.toContain(text);
      await expect(frame.getByRole('button', { name: 'Pay', exact: true }).count()).resolves.toBe(0);
      await expect(frame.getByLabel('Card number').count()).resolves.toBe(0);
      await page.close();
    }
    expect((await getSession(expired)).State).toBe('EXPIRED');
    const again = await t.http().post(`/pay/${paid}`).send({ PaymentMethod: 'CARD', Card: { Name: 'A', Number: CARDS.visa, VerificationCode: '123', Expiry: { Month: 12, Year: 2040 } } });
    expect(again.status).toBe(409);
  });

  it('fails the session after three declined attempts', async () => {
    const id = await createSession();
    const card = { Name: 'A', Number: CARDS.declined, VerificationCode: '123', Expiry: { Month: 12, Year: 2040 } };
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await t.http().post(`/pay/${id}`).send({ PaymentMethod: 'CARD', Card: card })).body);
    expect(answers.map((a) => a.CanRetry)).toEqual([true, true, false]);
    expect((await getSession(id)).State).toBe('FAILED');
    const { page, frame } = await openCheckout(id);
    await expect(frame.getByRole('main').innerText()).resolves.toContain('could not be completed');
    await page.close();
  });

  it('takes one payment when the same payment is submitted twice at once', async () => {
    const id = await createSession();
    const card = { Name: 'A', Number: CARDS.visa, VerificationCode: '123', Expiry: { Month: 12, Year: 2040 } };
    const answers = await Promise.all(Array.from({ length: 5 }, () => t.http().post(`/pay/${id}`).send({ PaymentMethod: 'CARD', Card: card })));
    expect(answers.filter((a) => a.status === 200 && a.body.Outcome === 'COMPLETED')).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(4);
    const [{ n }] = await t.dataSource.query('SELECT COUNT(*) AS n FROM payment_order WHERE session_id = ?', [id]);
    expect(Number(n)).toBe(1);
    const [{ captures }] = await t.dataSource.query("SELECT COUNT(*) AS captures FROM sandbox_ledger l JOIN payment_order o ON o.id = l.order_id WHERE o.session_id = ? AND l.operation = 'capture'", [id]);
    expect(Number(captures)).toBe(1);
  });

  it('fits a narrow phone screen in light and dark themes (screenshots saved)', async () => {
    const phone = await browser.newContext({ viewport: { width: 360, height: 780 }, deviceScaleFactor: 1 });
    for (const theme of ['light', 'dark'] as const) {
      const id = await createSession({ Items: [{ Name: 'A rather long product name for a narrow screen', Amount: 1234.56, Quantity: 2 }] });
      const page = await phone.newPage();
      await page.goto(`${origin}/pay/${id}?theme=${theme}`);
      await page.getByRole('button', { name: 'Pay', exact: true }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await page.evaluate(() => document.body.className)).toBe(`theme-${theme}`);
      await page.screenshot({ path: artifactPath(`payment-page-${theme}.png`), fullPage: true });
      await page.close();
    }
    await phone.close();
  });

  it('has no serious accessibility violations (axe-core)', async () => {
    // axe is injected by the test; the page's own CSP (no inline script) would refuse it otherwise.
    const audit = await browser.newContext({ bypassCSP: true });
    const page = await audit.newPage();
    const id = await createSession();
    await page.goto(`${origin}/pay/${id}`);
    await page.getByRole('button', { name: 'Pay', exact: true }).click(); // empty form: the error state too
    await page.getByText('Enter a valid card number.').waitFor();
    await page.evaluate(AXE);
    const violations = await page.evaluate(async () => {
      const result = await (window as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string }[] }> } }).axe.run();
      return result.violations.map((v) => ({ id: v.id, impact: v.impact }));
    });
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await audit.close();
  });

  it('serves the page with a strict Content-Security-Policy and no inline script', async () => {
    const id = await createSession();
    const res = await fetch(`${origin}/pay/${id}`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-frame-options')).toBeNull();
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const script = await fetch(`${origin}/component.js`);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(await script.text()).toContain('PaymentComponent');
  });
});
