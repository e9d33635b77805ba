import { OrderState } from '../src/orders/order-state';
import { Order } from '../src/orders/order.entity';
import { RefundState } from '../src/orders/refund.entity';
import { PaymentSession } from '../src/session/session.entity';
import { sessionBody } from './setup/factories';
import { CompletionOptions, completeSessionIntoOrder } from './setup/orders';
import { Credentials, startTestApp, TestApp } from './setup/test-app';

const DAY = 24 * 3600 * 1000;

describe('GraphQL for dashboards: queries, tenancy, batching, pagination', () => {
  let t: TestApp;
  let merchant: Credentials;
  let other: Credentials;
  let readonly: Credentials;
  let admin: Credentials;

  beforeAll(async () => {
    // No scheduled jobs: the query-count test must see only the queries of its own request.
    t = await startTestApp({ SCHEDULER_ENABLED: 'false' });
    merchant = await t.merchantUser();
    other = await t.merchantUser();
    readonly = await t.user(merchant.merchantId, 'readonly');
    admin = await t.user(null, 'admin');
  });
  afterAll(() => t.close());

  const gql = (who: Credentials | null, query: string, variables?: Record<string, unknown>) => {
    const request = t.http().post('/graphql');
    if (who) request.auth(who.username, who.password);
    return request.send({ query, variables });
  };
  /** The data of a query that must succeed. */
  const data = async (who: Credentials, query: string, variables?: Record<string, unknown>) => {
    const res = await gql(who, query, variables);
    expect(res.body.errors).toBeUndefined();
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const codes = (res: { body: { errors?: { extensions: { code: string } }[] } }) => (res.body.errors ?? []).map((e) => e.extensions.code);

  const createSession = async (who: Credentials, overrides: Record<string, unknown> = {}) => {
    const res = await t.http().post('/v2.22/session').auth(who.username, who.password).send(sessionBody(overrides));
    expect(res.status).toBe(201);
    return res.body as { SessionId: string; MerchantReference: string; Currency: string };
  };

  const completeIntoOrder = (session: { SessionId: string; MerchantReference: string }, options?: CompletionOptions) =>
    completeSessionIntoOrder(t.dataSource, session, options);

  const SESSION_FIELDS = `id merchantId merchantReference state currency
    totalAmount { amount currency } items { name quantity amount { amount } }
    billingProfile { name email country region }
    order { id state total { amount currency } refunded { amount } refunds { referenceId state amount { amount currency } } }`;

  describe('session(id) and sessions', () => {
    it('shows a session with exact amounts, its billing profile and its order with refunds', async () => {
      const created = await createSession(merchant, { Items: [{ Name: 'Tee', Amount: 12.1, Quantity: 3 }], TaxAmount: 0.2 });
      await completeIntoOrder(created, { refunds: [{ amountMinor: 1000, state: RefundState.Succeeded }, { amountMinor: 13, state: RefundState.Failed }] });

      const { session } = await data(merchant, `query($id: ID!) { session(id: $id) { ${SESSION_FIELDS} taxAmount { amount } } }`, { id: created.SessionId });
      expect(session).toEqual({
        id: created.SessionId,
        merchantId: merchant.merchantId,
        merchantReference: created.MerchantReference,
        state: 'COMPLETED',
        currency: 'USD',
        // 12.10 × 3 + 0.20 = 36.50: decimal strings, never floats.
        totalAmount: { amount: '36.50', currency: 'USD' },
        taxAmount: { amount: '0.20' },
        items: [{ name: 'Tee', quantity: 3, amount: { amount: '12.10' } }],
        billingProfile: { name: 'Jo Doe', email: 'jo@example.com', country: 'CA', region: 'ON' },
        order: {
          id: expect.any(String),
          state: 'PROCESSED',
          total: { amount: '36.50', currency: 'USD' },
          refunded: { amount: '10.00' },
          refunds: [
            { referenceId: 'refund-1', state: 'SUCCEEDED', amount: { amount: '10.00', currency: 'USD' } },
            { referenceId: 'refund-2', state: 'FAILED', amount: { amount: '0.13', currency: 'USD' } },
          ],
        },
      });
    });

    it('fills related objects asked for through aliases and fragments', async () => {
      const created = await createSession(merchant);
      const order = await completeIntoOrder(created, { refunds: [{ amountMinor: 100, state: RefundState.Succeeded }] });
      const query = `query($id: ID!) { session(id: $id) { paid: order { id } ...Refunds billingProfile { ...Who } } }
        fragment Refunds on Session { order { refunds { referenceId order { session { id } } } } }
        fragment Who on BillingProfile { name }`;
      expect((await data(merchant, query, { id: created.SessionId })).session).toEqual({
        paid: { id: order.id },
        order: { refunds: [{ referenceId: 'refund-1', order: { session: { id: created.SessionId } } }] },
        billingProfile: { name: 'Jo Doe' },
      });
    });

    it("another merchant's session is SESSION_NOT_FOUND; readonly users and admins can read it", async () => {
      const created = await createSession(merchant);
      const query = 'query($id: ID!) { session(id: $id) { id state } }';
      const res = await gql(other, query, { id: created.SessionId });
      expect(res.status).toBe(200);
      expect(res.body.data).toBeNull();
      expect(res.body.errors).toEqual([
        expect.objectContaining({ message: 'No session exists for the given session ID', path: ['session'], extensions: { code: 'SESSION_NOT_FOUND' } }),
      ]);
      expect((await data(readonly, query, { id: created.SessionId })).session).toEqual({ id: created.SessionId, state: 'CREATED' });
      expect((await data(admin, query, { id: created.SessionId })).session).toEqual({ id: created.SessionId, state: 'CREATED' });
    });

    it('filters by state (a CREATED session past its expiry counts as EXPIRED), reference, currency and creation time', async () => {
      const shop = await t.merchantUser();
      const usd = await createSession(shop);
      const jpy = await createSession(shop, { Currency: 'JPY', Items: [{ Name: 'Tea', Amount: 1500, Quantity: 2 }] });
      const lapsed = await createSession(shop);
      await t.dataSource.getRepository(PaymentSession).update({ id: lapsed.SessionId }, { expiresAt: new Date(Date.now() - 1000) });
      const cancelled = await createSession(shop);
      expect((await t.http().delete(`/v2.22/session/${cancelled.SessionId}`).auth(shop.username, shop.password)).status).toBe(204);

      const ids = async (filter: Record<string, unknown>) => {
        const result = await data(shop, 'query($filter: SessionFilter) { sessions(filter: $filter) { edges { node { id state } } } }', { filter });
        return result.sessions.edges.map((e: { node: { id: string } }) => e.node.id).sort();
      };
      expect(await ids({})).toEqual([usd, jpy, lapsed, cancelled].map((s) => s.SessionId).sort());
      expect(await ids({ state: 'CREATED' })).toEqual([usd.SessionId, jpy.SessionId].sort());
      expect(await ids({ state: 'EXPIRED' })).toEqual([lapsed.SessionId]);
      expect(await ids({ state: 'CANCELLED' })).toEqual([cancelled.SessionId]);
      expect(await ids({ merchantReference: jpy.MerchantReference })).toEqual([jpy.SessionId]);
      expect(await ids({ currency: 'JPY' })).toEqual([jpy.SessionId]);
      const hourAgo = new Date(Date.now() - 3600_000).toISOString();
      expect(await ids({ createdFrom: hourAgo })).toHaveLength(4);
      expect(await ids({ createdTo: hourAgo })).toEqual([]);

      const lapsedNode = await data(shop, 'query($id: ID!) { session(id: $id) { state } }', { id: lapsed.SessionId });
      expect(lapsedNode.session.state).toBe('EXPIRED');
    });

    it('merchant users see only their own merchant, whatever merchantId they filter by; admins see all and may filter', async () => {
      const mine = await createSession(merchant);
      const theirs = await createSession(other);
      const query = 'query($filter: SessionFilter) { sessions(first: 100, filter: $filter) { edges { node { id merchantId } } } }';
      const seen = async (who: Credentials, filter: Record<string, unknown> = {}) =>
        (await data(who, query, { filter })).sessions.edges.map((e: { node: { id: string; merchantId: string } }) => e.node);

      const merchantView = await seen(merchant);
      expect(merchantView.map((n: { id: string }) => n.id)).toContain(mine.SessionId);
      expect(merchantView.every((n: { merchantId: string }) => n.merchantId === merchant.merchantId)).toBe(true);
      expect(await seen(merchant, { merchantId: other.merchantId })).toEqual([]);

      const adminView = await seen(admin);
      expect(adminView.map((n: { id: string }) => n.id)).toEqual(expect.arrayContaining([mine.SessionId, theirs.SessionId]));
      const filtered = await seen(admin, { merchantId: other.merchantId });
      expect(filtered.length).toBeGreaterThan(0);
      expect(filtered.every((n: { merchantId: string }) => n.merchantId === other.merchantId)).toBe(true);
    });
  });

  describe('orders and refunds', () => {
    let shop: Credentials;
    let authorizedSoon: Order;
    let authorizedLater: Order;
    let refunded: Order;
    let plain: Order;

    beforeAll(async () => {
      shop = await t.merchantUser();
      authorizedSoon = await completeIntoOrder(await createSession(shop), { state: OrderState.PaymentAuthorized, expiresAt: new Date(Date.now() + 2 * DAY) });
      authorizedLater = await completeIntoOrder(await createSession(shop), { state: OrderState.PaymentAuthorized, expiresAt: new Date(Date.now() + 6 * DAY) });
      refunded = await completeIntoOrder(await createSession(shop), {
        refunds: [{ amountMinor: 500, state: RefundState.Succeeded }, { amountMinor: 250, state: RefundState.InProgress }],
      });
      plain = await completeIntoOrder(await createSession(shop, { Currency: 'KWD', Items: [{ Name: 'Lamp', Amount: 1.25, Quantity: 1 }] }));
    });

    const orderIds = async (who: Credentials, filter: Record<string, unknown>) => {
      const result = await data(who, 'query($filter: OrderFilter) { orders(filter: $filter) { edges { node { id } } } }', { filter });
      return result.orders.edges.map((e: { node: { id: string } }) => e.node.id).sort();
    };

    it('order(id) shows the order, its capture deadline, card and session; another merchant gets OrderNotFound', async () => {
      const query = `query($id: ID!) { order(id: $id) {
        id source referenceId sessionId state paymentMethod card { brand last4 } captureDeadline total { amount currency }
        session { id state order { id } } } }`;
      const { order } = await data(shop, query, { id: authorizedSoon.id });
      expect(order).toEqual({
        id: authorizedSoon.id,
        source: 'SESSION',
        referenceId: authorizedSoon.referenceId,
        sessionId: authorizedSoon.sessionId,
        state: 'PAYMENT_AUTHORIZED',
        paymentMethod: 'VISA',
        card: { brand: 'VISA', last4: '1111' },
        captureDeadline: authorizedSoon.expiresAt!.toISOString(),
        total: { amount: '19.99', currency: 'USD' },
        session: { id: authorizedSoon.sessionId, state: 'COMPLETED', order: { id: authorizedSoon.id } },
      });
      const res = await gql(merchant, query, { id: authorizedSoon.id });
      expect(codes(res)).toEqual(['OrderNotFound']);
      expect((await data(admin, 'query($id: ID!) { order(id: $id) { id } }', { id: authorizedSoon.id })).order.id).toBe(authorizedSoon.id);
    });

    it('filters orders by state, capture deadline, refunds and currency', async () => {
      expect(await orderIds(shop, {})).toEqual([authorizedSoon, authorizedLater, refunded, plain].map((o) => o.id).sort());
      expect(await orderIds(shop, { state: 'PAYMENT_AUTHORIZED' })).toEqual([authorizedSoon.id, authorizedLater.id].sort());
      expect(await orderIds(shop, { captureDeadlineBefore: new Date(Date.now() + 3 * DAY).toISOString() })).toEqual([authorizedSoon.id]);
      expect(await orderIds(shop, { captureDeadlineAfter: new Date(Date.now() + 3 * DAY).toISOString() })).toEqual([authorizedLater.id]);
      expect(await orderIds(shop, { hasRefunds: true })).toEqual([refunded.id]);
      expect(await orderIds(shop, { hasRefunds: false })).toHaveLength(3);
      expect(await orderIds(shop, { currency: 'KWD' })).toEqual([plain.id]);
      expect(await orderIds(merchant, { referenceId: plain.referenceId })).toEqual([]);
    });

    it('lists refunds with their order, filtered by state and order', async () => {
      const query = `query($filter: RefundFilter) { refunds(filter: $filter) { edges { node {
        referenceId state amount { amount currency } order { id refunded { amount } } } } } }`;
      const all = await data(shop, query, { filter: {} });
      expect(all.refunds.edges.map((e: { node: unknown }) => e.node)).toEqual([
        { referenceId: 'refund-2', state: 'IN_PROGRESS', amount: { amount: '2.50', currency: 'USD' }, order: { id: refunded.id, refunded: { amount: '7.50' } } },
        { referenceId: 'refund-1', state: 'SUCCEEDED', amount: { amount: '5.00', currency: 'USD' }, order: { id: refunded.id, refunded: { amount: '7.50' } } },
      ]);
      const succeeded = await data(shop, query, { filter: { state: 'SUCCEEDED', orderId: refunded.id } });
      expect(succeeded.refunds.edges.map((e: { node: { referenceId: string } }) => e.node.referenceId)).toEqual(['refund-1']);
      expect((await data(other, query, { filter: { orderId: refunded.id } })).refunds.edges).toEqual([]);
    });

    it('shows KWD amounts with three decimals', async () => {
      const { order } = await data(shop, 'query($id: ID!) { order(id: $id) { total { amount currency } } }', { id: plain.id });
      expect(order.total).toEqual({ amount: '1.250', currency: 'KWD' });
    });
  });

  describe('taxQuote, merchants, totals', () => {
    it('taxQuote(id) shows a stored quote with exact amounts; another merchant gets TAX_QUOTE_NOT_FOUND', async () => {
      const quoted = await t.http().post('/v1/tax/quote').auth(merchant.username, merchant.password).send({
        Currency: 'USD',
        Reference: 'cart-7',
        Items: [{ Sku: 'SKU-1', Description: 'T-shirt', Quantity: 2, Amount: 39.98 }],
        ShippingAddress: { Street: '1 Market St', City: 'San Francisco', Region: 'CA', Country: 'US', Postcode: '94105' },
      });
      expect(quoted.status).toBe(201);
      const query = `query($id: ID!) { taxQuote(id: $id) { id reference currency amount { amount } taxAmount { amount }
        shippingCountry items { sku quantity amount { amount } taxAmount { amount } taxes { name taxAmount { amount } } } } }`;
      const { taxQuote } = await data(merchant, query, { id: quoted.body.Id });
      const fixed = (n: number) => n.toFixed(2);
      expect(taxQuote).toMatchObject({
        id: quoted.body.Id,
        reference: 'cart-7',
        currency: 'USD',
        amount: { amount: fixed(quoted.body.Amount) },
        taxAmount: { amount: fixed(quoted.body.TaxAmount) },
        shippingCountry: 'US',
        items: [{ sku: 'SKU-1', quantity: 2, amount: { amount: fixed(quoted.body.Items[0].Amount) }, taxAmount: { amount: fixed(quoted.body.Items[0].TaxAmount) } }],
      });
      expect(Number(taxQuote.taxAmount.amount)).toBeGreaterThan(0);
      expect(codes(await gql(other, query, { id: quoted.body.Id }))).toEqual(['TAX_QUOTE_NOT_FOUND']);
    });

    it('merchants: admins only', async () => {
      const query = '{ merchants(first: 100) { edges { node { id name remittanceCurrency } } pageInfo { hasNextPage } } }';
      const list = await data(admin, query);
      expect(list.merchants.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(expect.arrayContaining([merchant.merchantId, other.merchantId]));
      for (const who of [merchant, readonly]) {
        const res = await gql(who, query);
        expect(codes(res)).toEqual(['NOT_AUTHORIZED']);
        expect(res.body.errors[0].message).toBe('User is not permitted to access this resource');
      }
    });

    it('totals: count and exact amount by state and currency over [from, to), per merchant for users, all or one for admins', async () => {
      const shop = await t.merchantUser();
      const from = new Date(Date.now() - 60_000);
      for (let i = 0; i < 3; i++) await createSession(shop, { Items: [{ Name: 'Pen', Amount: 0.1, Quantity: 1 }] });
      await createSession(shop, { Currency: 'JPY', Items: [{ Name: 'Tea', Amount: 1500, Quantity: 2 }] });
      const paid = await createSession(shop, { Items: [{ Name: 'Mug', Amount: 20.05, Quantity: 1 }] });
      await completeIntoOrder(paid, { state: OrderState.Processed });
      const to = new Date(Date.now() + 60_000);

      const query = `query($from: DateTime!, $to: DateTime!, $merchantId: ID) { totals(from: $from, to: $to, merchantId: $merchantId) {
        sessions { state currency count amount } orders { state currency count amount } } }`;
      const { totals } = await data(shop, query, { from, to });
      expect(totals).toEqual({
        sessions: [
          { state: 'COMPLETED', currency: 'USD', count: 1, amount: '20.05' },
          { state: 'CREATED', currency: 'JPY', count: 1, amount: '3000' },
          // 0.1 + 0.1 + 0.1 is exactly 0.30 here.
          { state: 'CREATED', currency: 'USD', count: 3, amount: '0.30' },
        ],
        orders: [{ state: 'PROCESSED', currency: 'USD', count: 1, amount: '20.05' }],
      });
      // A merchant user cannot widen it to another merchant; an admin can narrow it to one.
      expect((await data(shop, query, { from, to, merchantId: merchant.merchantId })).totals).toEqual({ sessions: [], orders: [] });
      expect((await data(admin, query, { from, to, merchantId: shop.merchantId })).totals).toEqual(totals);
      const everyone = (await data(admin, query, { from, to })).totals;
      const usdCreated = everyone.sessions.find((s: { state: string; currency: string }) => s.state === 'CREATED' && s.currency === 'USD');
      expect(usdCreated.count).toBeGreaterThan(3);
      expect((await data(shop, query, { from: new Date(from.getTime() - 3600_000), to: from })).totals).toEqual({ sessions: [], orders: [] });

      const backwards = await gql(shop, query, { from: to, to: from });
      expect(codes(backwards)).toEqual(['INVALID_REQUEST']);
      expect(backwards.body.errors[0].extensions.fieldErrors).toEqual([expect.objectContaining({ Field: 'to' })]);
    });
  });

  describe('batching (no N+1)', () => {
    it('a page of 50 sessions with billing profiles, orders and refunds takes 1 SQL query, as a page of 5 does; orders with their sessions 5', async () => {
      const shop = await t.merchantUser();
      for (let i = 0; i < 50; i++) {
        const session = await createSession(shop);
        await completeIntoOrder(session, { refunds: [{ amountMinor: 100, state: RefundState.Succeeded }, { amountMinor: 200, state: RefundState.Succeeded }] });
      }
      const query = `query($first: Int!) { sessions(first: $first) { edges { node { ${SESSION_FIELDS} } } pageInfo { hasNextPage endCursor } } }`;
      await data(shop, query, { first: 1 }); // the credentials are now cached: no user look-up below

      const queriesOf = async (run: () => Promise<void>) => {
        const logger = t.dataSource.logger;
        const seen: string[] = [];
        const original = logger.logQuery.bind(logger);
        logger.logQuery = (sql, parameters, runner) => {
          seen.push(sql);
          return original(sql, parameters, runner);
        };
        try {
          await run();
        } finally {
          logger.logQuery = original;
        }
        return seen;
      };
      const sessionPage = (first: number) =>
        queriesOf(async () => {
          const result = await data(shop, query, { first });
          expect(result.sessions.edges).toHaveLength(first);
          for (const edge of result.sessions.edges) expect(edge.node.order.refunds).toHaveLength(2);
        });
      // One query: the sessions page joined with billing profiles and orders, the orders' refunds as JSON.
      const fifty = await sessionPage(50);
      expect(fifty).toHaveLength(1);
      expect(fifty[0]).toMatch(/JOIN .billing_profile. .*JOIN .payment_order./);
      expect(fifty[0]).toMatch(/FROM .order_refund. .r. WHERE r\.order_id = o\.id/);
      expect(await sessionPage(5)).toHaveLength(1);

      // Reached from orders, sessions and their billing profiles are batched loads, one query per level.
      const ordersQuery = `{ orders(first: 50) { edges { node { id refunds { id } session { id billingProfile { name } order { id } } } } } }`;
      const orderPage = await queriesOf(async () => {
        const result = await data(shop, ordersQuery);
        expect(result.orders.edges).toHaveLength(50);
        for (const { node } of result.orders.edges) {
          expect(node.refunds).toHaveLength(2);
          expect(node.session.billingProfile.name).toEqual(expect.any(String));
          expect(node.session.order.id).toBe(node.id);
        }
      });
      // orders page, refunds of the orders, their sessions, billing profiles and the sessions' orders.
      expect(orderPage).toHaveLength(5);
    });
  });

  describe('cursor pagination', () => {
    it('pages through every session exactly once while new sessions are being created, in both orders', async () => {
      const shop = await t.merchantUser();
      const existing: string[] = [];
      for (let i = 0; i < 25; i++) existing.push((await createSession(shop)).SessionId);

      for (const order of ['NEWEST_FIRST', 'OLDEST_FIRST']) {
        let inserting = true;
        const inserted: string[] = [];
        const inserter = (async () => {
          while (inserting) inserted.push((await createSession(shop)).SessionId);
        })();
        const seen: string[] = [];
        let after: string | null = null;
        let pages = 0;
        try {
          for (;;) {
            const result = await data(
              shop,
              'query($after: String, $order: SortOrder) { sessions(first: 4, after: $after, order: $order) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }',
              { after, order },
            );
            const { edges, pageInfo } = result.sessions;
            seen.push(...edges.map((e: { node: { id: string } }) => e.node.id));
            pages++;
            if (edges.length) expect(pageInfo.endCursor).toBe(edges[edges.length - 1].cursor);
            if (!pageInfo.hasNextPage) break;
            after = pageInfo.endCursor;
            // Let the inserter create sessions between pages.
            await new Promise((resolve) => setTimeout(resolve, 15));
            expect(pages).toBeLessThan(100);
          }
        } finally {
          inserting = false;
          await inserter;
        }
        expect(inserted.length).toBeGreaterThan(0);
        expect(new Set(seen).size).toBe(seen.length); // no repeats
        expect(seen).toEqual(expect.arrayContaining(existing)); // no gaps
        existing.push(...inserted);
      }
    });

    it('orders rows created in the same instant by id, and keeps microseconds exact in cursors', async () => {
      const shop = await t.merchantUser();
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) ids.push((await createSession(shop)).SessionId);
      // Two groups 0.8 ms apart on MariaDB (a JS Date would round both to the same millisecond); one second on SQLite.
      const [early, late] = t.database.kind === 'mysql' ? ['2030-01-01 00:00:00.000100', '2030-01-01 00:00:00.000900'] : ['2030-01-01 00:00:00', '2030-01-01 00:00:00'];
      for (const [i, id] of ids.entries()) {
        await t.dataSource.query('UPDATE payment_session SET created_at = ? WHERE id = ?', [i < 3 ? early : late, id]);
      }
      const desc = (list: string[]) => [...list].sort().reverse();
      const expected = t.database.kind === 'mysql' ? [...desc(ids.slice(3)), ...desc(ids.slice(0, 3))] : desc(ids);

      const seen: string[] = [];
      let after: string | null = null;
      do {
        const result = await data(shop, 'query($after: String) { sessions(first: 1, after: $after) { edges { node { id } } pageInfo { hasNextPage endCursor } } }', { after });
        seen.push(...result.sessions.edges.map((e: { node: { id: string } }) => e.node.id));
        after = result.sessions.pageInfo.hasNextPage ? result.sessions.pageInfo.endCursor : null;
      } while (after);
      expect(seen).toEqual(expected);
    });

    it('refuses a made-up cursor and a page size above 100 with INVALID_REQUEST', async () => {
      const bad = await gql(merchant, '{ sessions(after: "not-a-cursor") { edges { node { id } } } }');
      expect(codes(bad)).toEqual(['INVALID_REQUEST']);
      expect(bad.body.errors[0].extensions.fieldErrors).toEqual([expect.objectContaining({ Field: 'after' })]);
      const big = await gql(merchant, '{ sessions(first: 101) { edges { node { id } } } }');
      expect(codes(big)).toEqual(['INVALID_REQUEST']);
      expect(big.body.errors[0].extensions.fieldErrors).toEqual([expect.objectContaining({ Field: 'first' })]);
    });
  });
});
