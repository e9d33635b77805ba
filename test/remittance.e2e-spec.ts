import Decimal from 'decimal.js';
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MerchantService } from '../src/auth/merchant.service';
import { CheckoutClient, CheckoutClientError, CheckoutParams, ReportDocument } from '../src/checkout/client/checkout-client';
import { crossRate, RATE_SOURCE, RateSource } from '../src/checkout/rates/rate-source';
import { Scheduler } from '../src/common/scheduler/scheduler.service';
import { JobLease } from '../src/common/scheduler/job-lease.entity';
import { RemittanceRunError, RemittanceService } from '../src/remittance/remittance.service';
import { card, CARDS, checkoutParams, CheckoutTestApp, startCheckoutApp } from './setup/checkout';
import { startTestApp, TestApp } from './setup/test-app';

const ENV = { SCHEDULER_ENABLED: 'false', REMITTANCE_FEE_PERCENT: '2.5', REMITTANCE_FEE_FIXED_MINOR: '30', REMITTANCE_INTERVAL_SECONDS: '3600' };

/** What the service should remit for one payment, worked out here on its own: amount / rate, half-up, less 2.5 % (half-up) + 0.30. */
function expectedPayment(consumer: string, rate: string, remittanceDigits = 2): { gross: number; fee: number } {
  const gross = new Decimal(consumer).dividedBy(rate).times(10 ** remittanceDigits).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
  const fee = Math.min(gross, new Decimal(gross).times('0.025').toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber() + 30);
  return { gross, fee };
}

const cents = (amount: string) => new Decimal(amount).times(100).toNumber();

/** RFC 4180, as a spreadsheet reads it: quoted fields may hold commas, quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') row.push(field), (field = '');
    else if (ch === '\r' && text[i + 1] === '\n') row.push(field), rows.push(row), (row = []), (field = ''), i++;
    else field += ch;
  }
  if (field || row.length) row.push(field), rows.push(row);
  return rows;
}

/** JPY has no minor unit: 2 × 1000 + 500 shipping + 150 taxes − 200 = 2450 JPY. */
const inYen = (overrides: Partial<CheckoutParams> = {}) =>
  checkoutParams({
    ConsumerCurrency: 'JPY',
    ConsumerTotal: '2450',
    Items: [{ Sku: 'SKU-1', Description: 'Mug', ConsumerPrice: '1000', Quantity: '2' }],
    Shipping: { ConsumerPrice: '500', ConsumerTaxes: '150' },
    Discounts: [{ Name: 'Welcome', ConsumerPrice: '200' }],
    ...overrides,
  });

describe('Remittance runs and settlement reports', () => {
  let c: CheckoutTestApp;
  let client: CheckoutClient;
  let remittances: RemittanceService;
  const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> => c.t.dataSource.query(query, params);

  beforeAll(async () => {
    c = await startCheckoutApp(ENV);
    client = c.client();
    remittances = c.t.app.get(RemittanceService);
  });
  afterAll(() => c.t.close());

  /** A signed call made by hand, its answer's signature checked here (not by the client). */
  async function signedCall(path: string, payload: Record<string, unknown>, options: { secret?: string; method?: 'GET' | 'POST'; signature?: string } = {}) {
    const text = JSON.stringify({ MerchantId: c.merchantId, ...payload });
    const secret = options.secret ?? c.secret;
    const signature = options.signature ?? createHmac('sha256', secret).update(text).digest('base64');
    const fields = new URLSearchParams({ request: text, signature });
    const response =
      options.method === 'POST'
        ? await fetch(`${c.base}/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: fields.toString() })
        : await fetch(`${c.base}/${path}?${fields}`);
    const raw = await response.text();
    const type = response.headers.get('content-type') ?? '';
    const envelope = type.startsWith('application/x-www-form-urlencoded')
      ? Object.fromEntries(new URLSearchParams(raw))
      : type.startsWith('application/json')
        ? (JSON.parse(raw) as { response?: string; signature?: string })
        : {};
    const signed = typeof envelope.response === 'string' ? envelope.response : raw;
    const given = typeof envelope.response === 'string' ? envelope.signature : response.headers.get('signature');
    return {
      status: response.status,
      type,
      headers: response.headers,
      raw,
      body: typeof envelope.response === 'string' ? JSON.parse(envelope.response) : null,
      verified: given === createHmac('sha256', secret).update(signed).digest('base64'),
    };
  }

  // Shared by the tests below, in order: the first run settles them, the next ones must not again.
  const orders: Record<string, string> = {};
  let firstReport: ReportDocument;

  it('settles payments in several currencies (offer, reference rate, same currency) less the fee, refunds netted, to the cent', async () => {
    const offer = (await client.getRates()).RateOffers!.find((o) => o.Currency === 'EUR')!;
    orders.usd = (await client.checkout(checkoutParams(), card())).OrderId;
    orders.eur = (await client.checkout(checkoutParams({ ConsumerCurrency: 'EUR', RateOfferId: offer.Id }), card())).OrderId;
    orders.jpy = (await client.checkout(inYen(), card())).OrderId;
    orders.held = (await client.checkout(checkoutParams({ Capture: false }), card())).OrderId;
    await expect(client.checkout(checkoutParams(), card(CARDS.declined))).rejects.toBeInstanceOf(CheckoutClientError);
    const refunded = await client.refund({ OrderId: orders.usd, ReferenceId: 'part', Amount: '5.00' });
    const failed = await client.refund({ OrderId: orders.usd, ReferenceId: 'fails', Amount: '2.13' });
    expect((await client.query({ OrderId: orders.usd })).Refunds.map((r) => r.State).sort()).toEqual(['Failed', 'Succeeded']);
    const other = await c.otherMerchant();
    const otherOrder = (await other.checkout(checkoutParams(), card())).OrderId;

    const settled = await remittances.run();
    const mine = settled.filter((s) => s.remittance.merchantId === c.merchantId);
    expect(settled).toHaveLength(2);
    expect(mine).toHaveLength(1);
    const { remittance, report } = mine[0];

    // The rates: the offer's, as stored at checkout; the reference rate of the day for JPY; 1 for USD.
    const eurRate = (await client.query({ OrderId: orders.eur })).Rate!;
    const table = await c.t.app.get<RateSource>(RATE_SOURCE).current();
    const jpyRate = crossRate(table, 'USD', 'JPY').toFixed();
    const usd = expectedPayment('24.50', '1');
    const eur = expectedPayment('24.50', eurRate);
    const jpy = expectedPayment('2450', jpyRate);
    expect(remittance).toMatchObject({
      currency: 'USD',
      grossMinor: usd.gross + eur.gross + jpy.gross,
      feesMinor: usd.fee + eur.fee + jpy.fee,
      refundsMinor: 500,
      remittedMinor: usd.gross + eur.gross + jpy.gross - usd.fee - eur.fee - jpy.fee - 500,
      lineCount: 4,
      state: 'Completed',
    });

    // The report, through the signed API: list, JSON, CSV, all adding up to the remittance.
    const { Reports } = await client.reports();
    expect(Reports).toEqual([
      {
        ReportId: report.id,
        RemittanceId: remittance.id,
        Currency: 'USD',
        From: expect.any(String),
        To: remittance.periodTo.toISOString(),
        CreatedAt: expect.any(String),
        RemittedAmount: new Decimal(remittance.remittedMinor).dividedBy(100).toFixed(2),
      },
    ]);
    firstReport = await client.report(report.id, 'json');
    expect(firstReport.Lines.map((l) => [l.LineType, l.OrderId, l.ConsumerAmount, l.ConsumerCurrency, l.Rate, l.GrossAmount, l.Fee, l.RemittedAmount])).toEqual([
      ['Payment', orders.usd, '24.50', 'USD', '1', fmt(usd.gross), fmt(usd.fee), fmt(usd.gross - usd.fee)],
      ['Payment', orders.eur, '24.50', 'EUR', eurRate, fmt(eur.gross), fmt(eur.fee), fmt(eur.gross - eur.fee)],
      ['Payment', orders.jpy, '2450', 'JPY', jpyRate, fmt(jpy.gross), fmt(jpy.fee), fmt(jpy.gross - jpy.fee)],
      ['Refund', orders.usd, '-5.00', 'USD', '1', '-5.00', '0.00', '-5.00'],
    ]);
    expect(firstReport.Lines[1].RateOfferId).toBe(offer.Id);
    expect(firstReport.Lines[2].RateOfferId).toBeUndefined();
    expect(firstReport.Lines[3].RefundId).toBe(refunded.RefundId);
    expect(firstReport.Totals).toEqual({
      Payments: 3,
      Refunds: 1,
      GrossAmount: fmt(remittance.grossMinor),
      RefundedAmount: '5.00',
      Fees: fmt(remittance.feesMinor),
      RemittedAmount: fmt(remittance.remittedMinor),
    });
    expect(firstReport.Lines.reduce((sum, l) => sum + cents(l.RemittedAmount), 0)).toBe(remittance.remittedMinor);

    const csv = parseCsv(await client.report(report.id, 'csv'));
    expect(csv[0]).toEqual(['LineType', 'OrderId', 'MerchantReference', 'RefundId', 'Date', 'ConsumerAmount', 'ConsumerCurrency', 'Rate', 'RateOfferId', 'GrossAmount', 'Fee', 'RemittedAmount', 'RemittanceCurrency']);
    expect(csv).toHaveLength(5);
    const column = (name: string) => csv.slice(1).map((row) => row[csv[0].indexOf(name)]);
    expect(column('OrderId')).toEqual(firstReport.Lines.map((l) => l.OrderId));
    expect(column('RefundId')).toEqual(['', '', '', refunded.RefundId]);
    expect(column('RemittedAmount').reduce((sum, amount) => sum + cents(amount), 0)).toBe(remittance.remittedMinor);

    // What was stored: the three Processed orders and the succeeded refund, nothing else.
    const claimed = await sql<{ id: string; remittance_id: string | null; rate: string | null }>('SELECT id, remittance_id, rate FROM payment_order WHERE merchant_id = ?', [c.merchantId]);
    const byId = Object.fromEntries(claimed.map((row) => [row.id, row]));
    for (const id of [orders.usd, orders.eur, orders.jpy]) expect(byId[id].remittance_id).toBe(remittance.id);
    expect(byId[orders.held].remittance_id).toBeNull();
    expect(claimed.filter((row) => row.remittance_id === null)).toHaveLength(2); // held and declined
    // The reference rate is now the JPY order's rate: its refunds will use it.
    expect(byId[orders.jpy].rate).toBe(jpyRate);
    const refunds = await sql<{ id: string; remittance_id: string | null }>('SELECT id, remittance_id FROM order_refund WHERE order_id = ?', [orders.usd]);
    expect(Object.fromEntries(refunds.map((r) => [r.id, r.remittance_id]))).toEqual({ [refunded.RefundId]: remittance.id, [failed.RefundId]: null });

    // Tenant isolation: the other merchant sees its own report only, and not this one.
    const otherReports = (await other.reports()).Reports;
    expect(otherReports).toHaveLength(1);
    expect((await other.report(otherReports[0].ReportId)).Lines.map((l) => l.OrderId)).toEqual([otherOrder]);
    await expect(other.report(report.id)).rejects.toMatchObject({ status: 404, code: 'ReportNotFound' });
  });

  it('settles a refund made after its order was remitted in the next run, at the order\'s rate, and nothing twice', async () => {
    const jpyRefund = await client.refund({ OrderId: orders.jpy, ReferenceId: 'late', Amount: '1000' });
    const eurRefund = await client.refund({ OrderId: orders.eur, ReferenceId: 'late', Amount: '10.00' });
    await client.capture(orders.held);
    const eurRate = firstReport.Lines[1].Rate;
    const jpyRate = firstReport.Lines[2].Rate;

    // The scheduled job (REMITTANCE_INTERVAL_SECONDS=3600) is the next run.
    const before = Date.now();
    const outcomes = await c.t.app.get(Scheduler).runDue();
    expect(outcomes).toContainEqual({ name: 'remittance', processed: 1 });
    const lease = await c.t.dataSource.getRepository(JobLease).findOneByOrFail({ name: 'remittance' });
    expect(lease.nextRunAt.getTime()).toBeGreaterThanOrEqual(before + 3600_000 - 1000);

    const { Reports } = await client.reports();
    expect(Reports).toHaveLength(2);
    const second = await client.report(Reports[0].ReportId);
    const held = expectedPayment('24.50', '1');
    const jpyBack = new Decimal(1000).dividedBy(jpyRate).times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
    const eurBack = new Decimal(10).dividedBy(eurRate).times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
    expect(second.Lines.map((l) => [l.LineType, l.OrderId, l.RefundId, l.ConsumerAmount, l.Rate, l.Fee, l.RemittedAmount])).toEqual([
      ['Payment', orders.held, undefined, '24.50', '1', fmt(held.fee), fmt(held.gross - held.fee)],
      ['Refund', orders.jpy, jpyRefund.RefundId, '-1000', jpyRate, '0.00', fmt(-jpyBack)],
      ['Refund', orders.eur, eurRefund.RefundId, '-10.00', eurRate, '0.00', fmt(-eurBack)],
    ]);
    expect(second.Totals.RemittedAmount).toBe(fmt(held.gross - held.fee - jpyBack - eurBack));
    // Consecutive periods.
    expect(second.From).toBe(firstReport.To);

    // Nothing is left: no empty remittance is made.
    expect(await remittances.run()).toEqual([]);
    const [{ n }] = await sql<{ n: number }>('SELECT COUNT(*) AS n FROM remittance WHERE merchant_id = ?', [c.merchantId]);
    expect(Number(n)).toBe(2);
  });

  it('settles every order and refund exactly once when runs overlap, on one instance and on two', async () => {
    const { merchant, signingSecret } = await c.t.app.get(MerchantService).create({ name: 'Busy Shop', remittanceCurrency: 'KWD', rateMode: 'spot' });
    const busy = new CheckoutClient({ baseUrl: c.base, merchantId: merchant.id, signingSecret });
    const paid: string[] = [];
    for (let batch = 0; batch < 4; batch++) {
      paid.push(...(await Promise.all(Array.from({ length: 5 }, (_, i) => busy.checkout(checkoutParams({ ConsumerCurrency: i % 2 ? 'USD' : 'GBP' }), card())))).map((a) => a.OrderId));
    }
    await Promise.all(paid.slice(0, 6).map((OrderId, i) => busy.refund({ OrderId, ReferenceId: `r-${i}`, Amount: '1.00' })));

    const second: TestApp = await startTestApp(ENV, { shareDatabaseWith: c.t });
    // The worst overlap, made certain: every run has read the same unsettled rows before any of them claims.
    const prototype = RemittanceService.prototype as unknown as { candidates: (...args: unknown[]) => Promise<unknown> };
    const read = prototype.candidates;
    let arrived = 0;
    let release!: () => void;
    const everyoneRead = new Promise<void>((resolve) => (release = resolve));
    const spy = jest.spyOn(prototype, 'candidates').mockImplementation(async function (this: unknown, ...args: unknown[]) {
      const found = await read.apply(this, args);
      if (++arrived === 4) release();
      await everyoneRead;
      return found;
    });
    try {
      const runs = await Promise.all([
        remittances.run(),
        second.app.get(RemittanceService).run(),
        remittances.run({ merchantId: merchant.id }),
        second.app.get(RemittanceService).run({ merchantId: merchant.id }),
      ]);
      spy.mockRestore();
      // Whichever claimed first took every row; the others claimed nothing and made no remittance.
      const made = runs.flat().filter((s) => s.remittance.merchantId === merchant.id);
      expect(made).toHaveLength(1);
      expect(made[0].remittance.lineCount).toBe(26);

      // Each order and each refund: claimed by exactly one remittance, and on exactly one line of it.
      const lines = await sql<{ id: string; remittance_id: string; line_type: string; order_id: string }>(
        'SELECT l.id, l.remittance_id, l.line_type, l.order_id FROM remittance_line l JOIN remittance r ON r.id = l.remittance_id WHERE r.merchant_id = ?',
        [merchant.id],
      );
      expect(lines.filter((l) => l.line_type === 'Payment').map((l) => l.order_id).sort()).toEqual([...paid].sort());
      expect(lines.filter((l) => l.line_type === 'Refund')).toHaveLength(6);
      const orderRows = await sql<{ id: string; remittance_id: string }>('SELECT id, remittance_id FROM payment_order WHERE merchant_id = ?', [merchant.id]);
      const refundRows = await sql<{ id: string; remittance_id: string }>('SELECT id, remittance_id FROM order_refund WHERE merchant_id = ?', [merchant.id]);
      const lineOf = new Map(lines.map((l) => [l.id, l.remittance_id]));
      for (const row of [...orderRows, ...refundRows]) expect([row.id, row.remittance_id]).toEqual([row.id, lineOf.get(row.id)]);

      // Every remittance adds up: its amount is the sum of its lines, to the cent.
      const sums = await sql<{ id: string; remitted_minor: string; line_count: number; lines_sum: string; line_rows: number }>(
        `SELECT r.id, r.remitted_minor, r.line_count, SUM(l.remitted_minor) AS lines_sum, COUNT(*) AS line_rows
         FROM remittance r JOIN remittance_line l ON l.remittance_id = r.id GROUP BY r.id, r.remitted_minor, r.line_count`,
      );
      for (const row of sums) expect([Number(row.lines_sum), Number(row.line_rows)]).toEqual([Number(row.remitted_minor), Number(row.line_count)]);
      expect(await remittances.run()).toEqual([]);
      // KWD has 3 decimals: the report says so.
      const [listed] = (await busy.reports()).Reports;
      expect(listed.RemittedAmount).toBe(new Decimal(made[0].remittance.remittedMinor).dividedBy(1000).toFixed(3));
      expect((await busy.report(listed.ReportId)).Lines[0].GrossAmount).toMatch(/^\d+\.\d{3}$/);
    } finally {
      spy.mockRestore();
      await second.close();
    }
  });

  it('answers signed errors in the Checkout format, never a 500, and signs every answer', async () => {
    const list = await signedCall('reports', {});
    expect([list.status, list.verified, list.body.Reports.length]).toEqual([200, true, 2]);
    const reportId = list.body.Reports[0].ReportId as string;
    const byPost = await signedCall(`reports/${reportId}`, { Format: 'json' }, { method: 'POST' });
    expect([byPost.status, byPost.type.split(';')[0], byPost.verified, byPost.body.ReportId]).toEqual([200, 'application/x-www-form-urlencoded', true, reportId]);
    const listByPost = await signedCall('reports', {}, { method: 'POST' });
    expect([listByPost.status, listByPost.verified]).toEqual([200, true]);

    const csv = await signedCall(`reports/${reportId}`, { Format: 'csv' });
    expect([csv.status, csv.type, csv.verified]).toEqual([200, 'text/csv; charset=utf-8', true]);
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="report-${reportId}.csv"`);
    expect(parseCsv(csv.raw).length).toBeGreaterThan(1);
    const tampered = csv.raw.replace(/,Payment,|^Payment,/m, 'Refund,');
    expect(tampered).not.toBe(csv.raw);
    expect(createHmac('sha256', c.secret).update(tampered).digest('base64')).not.toBe(csv.headers.get('signature'));

    const cases: [string, string, Record<string, unknown>, Record<string, string>, number, string][] = [
      ['an unknown Format', `reports/${reportId}`, { Format: 'xml' }, {}, 400, 'RequestInvalid'],
      ['an unknown field', 'reports', { Currency: 'USD' }, {}, 400, 'RequestInvalid'],
      ['an unknown report', 'reports/00000000-0000-4000-8000-000000000000', {}, {}, 404, 'ReportNotFound'],
      ['a ReportId that is no UUID', 'reports/not-a-uuid', { Format: 'csv' }, {}, 404, 'ReportNotFound'],
      ['a wrong signature', 'reports', {}, { signature: 'AAAA' }, 401, 'SignatureInvalid'],
    ];
    for (const [what, path, payload, options, status, code] of cases) {
      const answer = await signedCall(path, payload, options);
      expect([what, answer.status, answer.verified, answer.body?.Error?.Code]).toEqual([what, status, true, code]);
    }
    const bad = await signedCall(`reports/${reportId}`, { Format: 'xml' });
    expect(bad.body.Error.Message).toMatch(/Format must be "csv" or "json"/);

    const paths = (await c.t.http().get('/openapi.json')).body.paths;
    expect(Object.keys(paths['/v2.22/reports'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(paths['/v2.22/reports/{ReportId}'].get.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['ReportId', 'request', 'signature']));

    await expect(remittances.run({ to: new Date(Date.now() + 3600_000) })).rejects.toBeInstanceOf(RemittanceRunError);
    await expect(remittances.run({ merchantId: '00000000-0000-4000-8000-000000000000' })).rejects.toBeInstanceOf(RemittanceRunError);
  });

  it('runs from the command line and prints one JSON line with the remittances made', async () => {
    const { merchant, signingSecret } = await c.t.app.get(MerchantService).create({ name: 'Command Line Shop' });
    const shop = new CheckoutClient({ baseUrl: c.base, merchantId: merchant.id, signingSecret });
    await shop.checkout(checkoutParams(), card());
    const merchantId = merchant.id;
    const to = new Date().toISOString();
    const { stdout } = await promisify(execFile)('node', [join(__dirname, '..', 'scripts/cli.js'), 'remittance', 'run', '--merchant', merchantId, '--to', to], {
      env: { ...process.env, ...c.t.env, LOG_LEVEL: 'silent' },
    });
    expect(stdout.split('\n')).toHaveLength(2);
    const { gross, fee } = expectedPayment('24.50', '1');
    expect(JSON.parse(stdout)).toEqual({
      Remittances: [
        {
          RemittanceId: expect.any(String),
          ReportId: expect.any(String),
          MerchantId: merchantId,
          Currency: 'USD',
          From: expect.any(String),
          To: to,
          Lines: 1,
          GrossAmount: fmt(gross),
          RefundedAmount: '0.00',
          Fees: fmt(fee),
          RemittedAmount: fmt(gross - fee),
        },
      ],
    });
    expect((await shop.reports()).Reports.map((r) => r.ReportId)).toEqual([JSON.parse(stdout).Remittances[0].ReportId]);
  }, 60_000);
});

function fmt(minor: number): string {
  return new Decimal(minor).dividedBy(100).toFixed(2);
}
