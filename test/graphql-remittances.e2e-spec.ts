import { MerchantService } from '../src/auth/merchant.service';
import { CheckoutClient, ReportDocument } from '../src/checkout/client/checkout-client';
import { RemittanceService } from '../src/remittance/remittance.service';
import { card, checkoutParams, CheckoutTestApp, startCheckoutApp } from './setup/checkout';
import { Credentials } from './setup/test-app';

// No scheduled jobs (the query-count test must see only its own request's queries); a fee, so that fees are not 0.
const ENV = { SCHEDULER_ENABLED: 'false', REMITTANCE_FEE_PERCENT: '2.5', REMITTANCE_FEE_FIXED_MINOR: '30' };

const REMITTANCE_FIELDS = `id merchantId currency periodFrom periodTo lineCount reportId createdAt
  gross { amount currency } fees { amount currency } refunds { amount currency } remitted { amount currency }`;
const LINE_FIELDS = `lineType orderId refundId merchantReference occurredAt consumerAmount { amount currency } rate rateOfferId
  gross { amount currency } fee { amount currency } remitted { amount currency }`;

interface Node {
  id: string;
  merchantId: string;
}

describe('GraphQL for dashboards: remittances and their lines', () => {
  let c: CheckoutTestApp;
  let client: CheckoutClient;
  let run: RemittanceService['run'];
  let merchant: Credentials;
  let readonly: Credentials;
  let admin: Credentials;
  let stranger: Credentials;
  let strangerClient: CheckoutClient;

  beforeAll(async () => {
    c = await startCheckoutApp(ENV);
    client = c.client();
    const service = c.t.app.get(RemittanceService);
    run = (options) => service.run(options);
    merchant = await c.t.user(c.merchantId, 'merchant');
    readonly = await c.t.user(c.merchantId, 'readonly');
    admin = await c.t.user(null, 'admin');
    const other = await c.t.app.get(MerchantService).create({ name: 'Stranger Shop' });
    strangerClient = new CheckoutClient({ baseUrl: c.base, merchantId: other.merchant.id, signingSecret: other.signingSecret });
    stranger = await c.t.user(other.merchant.id, 'merchant');
  });
  afterAll(() => c.t.close());

  const gql = (who: Credentials, query: string, variables?: Record<string, unknown>) =>
    c.t.http().post('/graphql').auth(who.username, who.password).send({ query, variables });
  const data = async (who: Credentials, query: string, variables?: Record<string, unknown>) => {
    const res = await gql(who, query, variables);
    expect(res.body.errors).toBeUndefined();
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const codes = (res: { body: { errors?: { extensions: { code: string } }[] } }) => (res.body.errors ?? []).map((e) => e.extensions.code);
  const listIds = async (who: Credentials, filter: Record<string, unknown> = {}) =>
    (await data(who, 'query($filter: RemittanceFilter) { remittances(first: 100, filter: $filter) { edges { node { id merchantId } } } }', { filter }))
      .remittances.edges.map((e: { node: Node }) => e.node) as Node[];

  /** The report's lines as the GraphQL lines must show them. */
  const linesOf = (report: ReportDocument) =>
    report.Lines.map((l) => ({
      lineType: l.LineType.toUpperCase(),
      orderId: l.OrderId,
      refundId: l.RefundId ?? null,
      merchantReference: l.MerchantReference,
      occurredAt: l.Date,
      consumerAmount: { amount: l.ConsumerAmount, currency: l.ConsumerCurrency },
      rate: l.Rate,
      rateOfferId: l.RateOfferId ?? null,
      gross: { amount: l.GrossAmount, currency: l.RemittanceCurrency },
      fee: { amount: l.Fee, currency: l.RemittanceCurrency },
      remitted: { amount: l.RemittedAmount, currency: l.RemittanceCurrency },
    }));

  // Made by the first test, used by the next ones.
  let first: { remittanceId: string; reportId: string };
  let strangerRemittanceId: string;

  it('remittance(id) shows the amounts and lines of the REST report exactly, for its merchant\'s users and admins', async () => {
    const offer = (await client.getRates()).RateOffers!.find((o) => o.Currency === 'EUR')!;
    const usd = (await client.checkout(checkoutParams(), card())).OrderId;
    const eur = (await client.checkout(checkoutParams({ ConsumerCurrency: 'EUR', RateOfferId: offer.Id }), card())).OrderId;
    await client.checkout(checkoutParams({ Capture: false }), card()); // authorized only: not settled
    const refund = await client.refund({ OrderId: usd, ReferenceId: 'part', Amount: '5.00' });
    await strangerClient.checkout(checkoutParams(), card());

    const settled = await run();
    expect(settled).toHaveLength(2);
    const mine = settled.find((s) => s.remittance.merchantId === c.merchantId)!;
    first = { remittanceId: mine.remittance.id, reportId: mine.report.id };
    strangerRemittanceId = settled.find((s) => s.remittance.merchantId !== c.merchantId)!.remittance.id;
    const report = await client.report(first.reportId, 'json');

    const query = `query($id: ID!) { remittance(id: $id) { ${REMITTANCE_FIELDS} lines { ${LINE_FIELDS} } } }`;
    const { remittance } = await data(merchant, query, { id: first.remittanceId });
    const usdAmount = (amount: string) => ({ amount, currency: 'USD' });
    expect(remittance).toEqual({
      id: first.remittanceId,
      merchantId: c.merchantId,
      currency: 'USD',
      periodFrom: report.From,
      periodTo: report.To,
      lineCount: 3,
      reportId: first.reportId,
      createdAt: report.CreatedAt,
      gross: usdAmount(report.Totals.GrossAmount),
      fees: usdAmount(report.Totals.Fees),
      refunds: usdAmount(report.Totals.RefundedAmount),
      remitted: usdAmount(report.Totals.RemittedAmount),
      lines: linesOf(report),
    });
    expect(remittance.refunds).toEqual(usdAmount('5.00'));
    expect(Number(remittance.fees.amount)).toBeGreaterThan(0);
    expect(remittance.lines.map((l: { lineType: string; orderId: string; refundId: string | null }) => [l.lineType, l.orderId, l.refundId])).toEqual([
      ['PAYMENT', usd, null],
      ['PAYMENT', eur, null],
      ['REFUND', usd, refund.RefundId],
    ]);
    expect(remittance.lines[1].rateOfferId).toBe(offer.Id);

    // Readonly users of the merchant and admins read it too.
    const short = 'query($id: ID!) { remittance(id: $id) { id remitted { amount } } }';
    for (const who of [readonly, admin]) {
      expect((await data(who, short, { id: first.remittanceId })).remittance).toEqual({ id: first.remittanceId, remitted: { amount: report.Totals.RemittedAmount } });
    }
  });

  it("another merchant's remittance, an unknown id and a made-up id are RemittanceNotFound; lists stay within the merchant", async () => {
    const query = 'query($id: ID!) { remittance(id: $id) { id lines { orderId } } }';
    for (const id of [first.remittanceId, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const res = await gql(stranger, query, { id });
      expect(res.status).toBe(200);
      expect(res.body.data).toBeNull();
      expect(res.body.errors).toEqual([
        expect.objectContaining({ message: 'No remittance of this merchant has this RemittanceId', path: ['remittance'], extensions: { code: 'RemittanceNotFound' } }),
      ]);
    }
    expect(codes(await gql(merchant, query, { id: strangerRemittanceId }))).toEqual(['RemittanceNotFound']);

    expect((await listIds(merchant)).map((n) => n.id)).toEqual([first.remittanceId]);
    expect((await listIds(stranger)).map((n) => n.id)).toEqual([strangerRemittanceId]);
    // A merchant user naming another merchant gets nothing; an admin sees every merchant and may filter by one.
    expect(await listIds(stranger, { merchantId: c.merchantId })).toEqual([]);
    expect((await listIds(admin)).map((n) => n.id).sort()).toEqual([first.remittanceId, strangerRemittanceId].sort());
    expect(await listIds(admin, { merchantId: c.merchantId })).toEqual([{ id: first.remittanceId, merchantId: c.merchantId }]);
  });

  it('pages over two remittances in both orders, filters them, and loads report ids and lines of a page in one query each', async () => {
    await client.checkout(checkoutParams({ ConsumerTotal: '24.50' }), card());
    const [second] = await run({ merchantId: c.merchantId });
    const secondId = second.remittance.id;
    const secondReport = await client.report(second.report.id, 'json');

    const page = `query($after: String, $order: SortOrder, $filter: RemittanceFilter) {
      remittances(first: 1, after: $after, order: $order, filter: $filter) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }`;
    const walk = async (order: string) => {
      const seen: string[] = [];
      let after: string | null = null;
      for (let pages = 0; pages < 5; pages++) {
        const { remittances } = await data(merchant, page, { after, order });
        seen.push(...remittances.edges.map((e: { node: { id: string } }) => e.node.id));
        if (remittances.edges.length) expect(remittances.pageInfo.endCursor).toBe(remittances.edges[0].cursor);
        if (!remittances.pageInfo.hasNextPage) return seen;
        after = remittances.pageInfo.endCursor;
      }
      throw new Error('too many pages');
    };
    expect(await walk('NEWEST_FIRST')).toEqual([secondId, first.remittanceId]);
    expect(await walk('OLDEST_FIRST')).toEqual([first.remittanceId, secondId]);

    // Filters: creation time (the second run's own instant), currency.
    const createdAt = second.remittance.createdAt;
    expect((await listIds(merchant, { createdFrom: createdAt.toISOString() })).map((n) => n.id)).toEqual([secondId]);
    expect((await listIds(merchant, { createdTo: createdAt.toISOString() })).map((n) => n.id)).toEqual([first.remittanceId]);
    expect(await listIds(merchant, { currency: 'EUR' })).toEqual([]);
    expect(await listIds(merchant, { currency: 'USD' })).toHaveLength(2);

    // A page with report ids and lines: the page, the reports, the lines (no query per remittance).
    const full = `{ remittances(first: 5) { edges { node { id reportId lineCount remitted { amount } lines { orderId remitted { amount } } } } } }`;
    await data(merchant, full); // the credentials are now cached: no user look-up below
    const logger = c.t.dataSource.logger;
    const original = logger.logQuery.bind(logger);
    const seen: string[] = [];
    logger.logQuery = (sql, parameters, runner) => {
      seen.push(sql);
      return original(sql, parameters, runner);
    };
    let nodes: { id: string; reportId: string; lineCount: number; remitted: { amount: string }; lines: { orderId: string }[] }[];
    try {
      nodes = (await data(merchant, full)).remittances.edges.map((e: { node: unknown }) => e.node);
    } finally {
      logger.logQuery = original;
    }
    expect(seen).toHaveLength(3);
    expect(nodes.map((n) => [n.id, n.reportId, n.lineCount, n.lines.length])).toEqual([
      [secondId, second.report.id, 1, 1],
      [first.remittanceId, first.reportId, 3, 3],
    ]);
    expect(nodes[0].remitted.amount).toBe(secondReport.Totals.RemittedAmount);
    expect(nodes[0].lines).toEqual(linesOf(secondReport).map((l) => ({ orderId: l.orderId, remitted: { amount: l.remitted.amount } })));

    // Lines over a large page are refused by the cost estimate: open remittances one at a time instead.
    const tooMuch = await gql(merchant, `{ remittances(first: 50) { edges { node { id lines { ${LINE_FIELDS} } } } } }`);
    expect(codes(tooMuch)).toEqual(['QUERY_TOO_COMPLEX']);
  });
});
