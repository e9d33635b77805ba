import { CheckoutClient, CheckoutClientError } from '../src/checkout/client/checkout-client';
import { SandboxLedgerEntry } from '../src/orders/processor/sandbox-ledger.entity';
import { card, CARDS, checkoutParams, CheckoutTestApp, startCheckoutApp } from './setup/checkout';

const outcome = <T>(call: Promise<T>): Promise<T | CheckoutClientError> => call.catch((error: unknown) => {
  if (error instanceof CheckoutClientError) return error;
  throw error;
});

/** Everything the service wrote, as text: every row of every table. */
async function databaseText(c: CheckoutTestApp): Promise<string> {
  const tables = c.t.dataSource.entityMetadatas.map((metadata) => metadata.tableName);
  const dumps = await Promise.all(tables.map(async (table) => JSON.stringify(await c.t.dataSource.query(`SELECT * FROM ${table}`))));
  return dumps.join('\n');
}

describe('Checkout money operations under concurrency, and what is kept of cards and secrets', () => {
  let c: CheckoutTestApp;
  let client: CheckoutClient;
  const logged: string[] = [];
  const writes = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };

  beforeAll(async () => {
    // Everything the service logs, at the most talkative level, is kept for the scan at the end.
    process.stdout.write = ((chunk: string | Uint8Array) => logged.push(String(chunk)) > 0) as typeof process.stdout.write;
    process.stderr.write = ((chunk: string | Uint8Array) => logged.push(String(chunk)) > 0) as typeof process.stderr.write;
    c = await startCheckoutApp({ LOG_LEVEL: 'debug' });
    client = c.client();
  });
  afterAll(async () => {
    await c.t.close();
    process.stdout.write = writes.out;
    process.stderr.write = writes.err;
  });

  const ledger = (orderId: string, operation: string) => c.t.dataSource.getRepository(SandboxLedgerEntry).countBy({ orderId, operation: operation as never });

  it('never over-refunds: 20 concurrent refunds of 2.00 on a 24.50 order', async () => {
    const paid = await client.checkout(checkoutParams(), card());
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => outcome(client.refund({ OrderId: paid.OrderId, ReferenceId: `race-${i}`, Amount: '2.00' }))),
    );
    const accepted = results.filter((r) => !(r instanceof CheckoutClientError));
    const refused = results.filter((r): r is CheckoutClientError => r instanceof CheckoutClientError);
    expect(accepted).toHaveLength(12);
    expect(refused.map((e) => e.code)).toEqual(Array(8).fill('RefundLimitExceeded'));

    const order = await client.query({ OrderId: paid.OrderId });
    expect(order.RefundedAmount).toBe('24.00');
    expect(order.Refunds.filter((r) => r.State === 'Succeeded')).toHaveLength(12);
    expect(await ledger(paid.OrderId, 'refund')).toBe(12);
    const [row] = await c.t.dataSource.query('SELECT refunded_minor FROM payment_order WHERE id = ?', [paid.OrderId]);
    expect(Number(row.refunded_minor)).toBe(2400);
  });

  it('never over-refunds with uneven amounts either', async () => {
    const paid = await client.checkout(checkoutParams(), card());
    const amounts = ['7.00', '5.50', '3.25', '9.99', '1.01', '4.00', '6.66', '2.00', '8.88', '0.50', '3.33', '7.77', '1.00', '2.22', '5.05', '4.44', '9.00', '0.99', '6.00', '3.00'];
    await Promise.all(amounts.map((Amount, i) => outcome(client.refund({ OrderId: paid.OrderId, ReferenceId: `uneven-${i}`, Amount }))));
    const order = await client.query({ OrderId: paid.OrderId });
    const refunded = order.Refunds.filter((r) => r.State === 'Succeeded').reduce((sum, r) => sum + Math.round(Number(r.Amount) * 100), 0);
    expect(refunded).toBeLessThanOrEqual(2450);
    expect(Math.round(Number(order.RefundedAmount) * 100)).toBe(refunded);
  });

  it('creates one refund for one ReferenceId sent 10 times at once', async () => {
    const paid = await client.checkout(checkoutParams(), card());
    const results = await Promise.all(Array.from({ length: 10 }, () => client.refund({ OrderId: paid.OrderId, ReferenceId: 'once', Amount: '5.00' })));
    expect(new Set(results.map((r) => r.RefundId)).size).toBe(1);
    const order = await client.query({ OrderId: paid.OrderId });
    expect(order.Refunds).toHaveLength(1);
    expect(order.RefundedAmount).toBe('5.00');
    expect(await ledger(paid.OrderId, 'refund')).toBe(1);
  });

  it('creates one order for one ReferenceId checked out 10 times at once', async () => {
    const params = checkoutParams();
    const results = await Promise.all(Array.from({ length: 10 }, () => outcome(client.checkout(params, card()))));
    const answers = results.filter((r) => !(r instanceof CheckoutClientError));
    const busy = results.filter((r): r is CheckoutClientError => r instanceof CheckoutClientError);
    expect(answers.length).toBeGreaterThanOrEqual(1);
    for (const error of busy) expect(error.code).toBe('RequestInProgress');
    const orderIds = new Set(answers.map((a) => (a as { OrderId: string }).OrderId));
    expect(orderIds.size).toBe(1);
    const [orderId] = [...orderIds];
    const [count] = await c.t.dataSource.query('SELECT COUNT(*) AS n FROM payment_order WHERE reference_id = ?', [params.ReferenceId]);
    expect(Number(count.n)).toBe(1);
    expect(await ledger(orderId, 'authorize')).toBe(1);
    expect(await ledger(orderId, 'capture')).toBe(1);
  });

  it('lets exactly one of a racing capture and cancel win', async () => {
    for (let round = 0; round < 5; round++) {
      const held = await client.checkout(checkoutParams({ Capture: false }), card());
      const [captured, cancelled] = await Promise.all([outcome(client.capture(held.OrderId)), outcome(client.cancel(held.OrderId))]);
      const state = (await client.query({ OrderId: held.OrderId })).OrderState;
      if (state === 'Processed') {
        expect(captured).toEqual({ OrderId: held.OrderId, OrderState: 'Processed' });
        expect(cancelled).toMatchObject({ code: 'AlreadyCaptured' });
        expect([await ledger(held.OrderId, 'capture'), await ledger(held.OrderId, 'void')]).toEqual([1, 0]);
      } else {
        expect(state).toBe('Cancelled');
        expect(cancelled).toEqual({ OrderId: held.OrderId, OrderState: 'Cancelled' });
        expect(captured).toMatchObject({ code: 'AlreadyCancelled' });
        expect([await ledger(held.OrderId, 'capture'), await ledger(held.OrderId, 'void')]).toEqual([0, 1]);
      }
    }
  });

  it('keeps no card number, security code, expiry or signing secret in the database or the logs', async () => {
    // Every test card went through the service (some declined, one challenged).
    for (const number of Object.values(CARDS)) await outcome(client.checkout(checkoutParams(), card(number, { VerificationCode: '987' })));
    const stored = await databaseText(c);
    const logs = logged.join('');
    // What is kept instead: scheme, last four and the processor's token.
    expect(stored).toMatch(/"card_last4":"1111"/);
    expect(stored).toMatch(/"card_token":"tok_[0-9a-f]{32}"/);
    for (const text of [stored, logs]) {
      for (const number of Object.values(CARDS)) expect(text).not.toContain(number);
      expect(text).not.toMatch(/VerificationCode|"Expiry":\{"Month"/);
      expect(text).not.toContain(c.secret);
    }
    expect(logs.length).toBeGreaterThan(0);
  });
});
