import { OrderState } from '../src/orders/order-state';
import { RefundState } from '../src/orders/refund.entity';
import { PaymentSession } from '../src/session/session.entity';
import { sessionBody, shippingDetails } from './setup/factories';
import { completeSessionIntoOrder } from './setup/orders';
import { Credentials, startTestApp, TestApp } from './setup/test-app';

interface IntrospectedField {
  name: string;
  type: { kind: string; name: string | null; ofType: IntrospectedField['type'] | null };
}

/**
 * The sessions page reads only the columns of the fields a query asks for (SESSION_FIELD_COLUMNS and
 * the like), and brings billing profiles, orders and refunds in its own query. Every field of those
 * types, read alone, must answer what a read of every field answers, and the page must answer what the
 * batched look-ups (reached from orders) answer. The fields come from the schema, so a new field is
 * covered without touching this test.
 */
describe('GraphQL sessions page: each field read alone equals a full read', () => {
  let t: TestApp;
  let shop: Credentials;
  const fieldsOf = new Map<string, IntrospectedField[]>();

  const data = async (query: string) => {
    const res = await t.http().post('/graphql').auth(shop.username, shop.password).send({ query });
    expect(res.body.errors).toBeUndefined();
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const namedType = (type: IntrospectedField['type']): { kind: string; name: string } =>
    type.ofType ? namedType(type.ofType) : { kind: type.kind, name: type.name! };
  /** The relations that lead back up from the sessions page (loaded in batches, not by the page). */
  const UPWARDS = ['Order.session', 'Refund.order'];
  /** Every field of a type, objects expanded, except `skip` ('Type.field'). */
  const allFields = (typeName: string, skip: string[] = UPWARDS): string =>
    fieldsOf
      .get(typeName)!
      .filter((field) => !skip.includes(`${typeName}.${field.name}`))
      .map((field) => selectionFor(typeName, field.name, skip))
      .join(' ');
  const selectionFor = (typeName: string, fieldName: string, skip: string[] = UPWARDS): string => {
    const field = fieldsOf.get(typeName)!.find((f) => f.name === fieldName)!;
    const type = namedType(field.type);
    return type.kind === 'OBJECT' ? `${fieldName} { ${allFields(type.name, skip)} }` : fieldName;
  };
  const page = (node: string) => `{ sessions(first: 20) { edges { node { id ${node} } } } }`;
  const nodes = async (node: string) =>
    ((await data(page(node))).sessions.edges as { node: Record<string, unknown> }[]).map((edge) => edge.node);

  beforeAll(async () => {
    t = await startTestApp({ SCHEDULER_ENABLED: 'false' });
    shop = await t.merchantUser();
    const { __schema } = await data(`{ __schema { types { name fields { name type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }`);
    for (const type of __schema.types) if (type.fields) fieldsOf.set(type.name, type.fields);

    const create = async (overrides: Record<string, unknown> = {}) => {
      const res = await t.http().post('/v2.22/session').auth(shop.username, shop.password).send(sessionBody(overrides));
      expect(res.status).toBe(201);
      return res.body as { SessionId: string; MerchantReference: string };
    };
    // Sessions unlike each other in every field the page shows.
    await create();
    await create({ Currency: 'JPY', Items: [{ Name: 'Tea', Amount: 1500, Quantity: 2 }], ViaAgent: true });
    await create({ TaxAmount: 1.5, Discounts: [{ Name: 'Promo', Amount: 2 }], ShippingDetails: shippingDetails({ ShippingAmount: 5, DutyAmount: 2.5 }) });
    await create({ Currency: 'KWD', Items: [{ Name: 'Oud', Amount: 12.345, Quantity: 1 }], AutoCapture: false });
    const lapsed = await create();
    await t.dataSource.getRepository(PaymentSession).update({ id: lapsed.SessionId }, { expiresAt: new Date(Date.now() - 1000) });
    await completeSessionIntoOrder(t.dataSource, await create(), { state: OrderState.PaymentAuthorized });
    await completeSessionIntoOrder(t.dataSource, await create({ Currency: 'EUR' }), {
      refunds: [
        { amountMinor: 500, state: RefundState.Succeeded },
        { amountMinor: 13, state: RefundState.Failed },
        { amountMinor: 7, state: RefundState.InProgress },
      ],
    });
    await completeSessionIntoOrder(t.dataSource, await create(), {
      refundsInOneInstant: true,
      refunds: [
        { amountMinor: 100, state: RefundState.Succeeded },
        { amountMinor: 200, state: RefundState.Succeeded },
        { amountMinor: 300, state: RefundState.Failed },
      ],
    });
    await completeSessionIntoOrder(t.dataSource, await create(), { state: OrderState.Cancelled });
  });
  afterAll(() => t.close());

  it('every Session, BillingProfile, Order and Refund field alone', async () => {
    const full = await nodes(allFields('Session'));
    expect(full.filter((node) => node.order)).toHaveLength(4);
    expect(full.flatMap((node) => (node.order as { refunds: unknown[] } | null)?.refunds ?? [])).toHaveLength(6);
    let compared = 0;

    for (const field of fieldsOf.get('Session')!) {
      if (field.name === 'order' || field.name === 'billingProfile') continue;
      const alone = await nodes(selectionFor('Session', field.name));
      expect(alone.map((node) => node[field.name])).toEqual(full.map((node) => node[field.name]));
      compared++;
    }
    for (const field of fieldsOf.get('BillingProfile')!) {
      const alone = await nodes(`billingProfile { ${selectionFor('BillingProfile', field.name)} }`);
      const expected = full.map((node) => ({ [field.name]: (node.billingProfile as Record<string, unknown>)[field.name] }));
      expect(alone.map((node) => node.billingProfile)).toEqual(expected);
      compared++;
    }
    type OrderNode = Record<string, unknown> & { refunds: Record<string, unknown>[] };
    const fullOrders = full.map((node) => node.order as OrderNode | null);
    for (const field of fieldsOf.get('Order')!) {
      if (field.name === 'session' || field.name === 'refunds') continue;
      const alone = await nodes(`order { ${selectionFor('Order', field.name)} }`);
      expect(alone.map((node) => node.order)).toEqual(fullOrders.map((order) => order && { [field.name]: order[field.name] }));
      compared++;
    }
    for (const field of fieldsOf.get('Refund')!) {
      if (field.name === 'order') continue;
      const alone = await nodes(`order { refunds { ${selectionFor('Refund', field.name)} } }`);
      const expected = fullOrders.map((order) => order && { refunds: order.refunds.map((refund) => ({ [field.name]: refund[field.name] })) });
      expect(alone.map((node) => node.order)).toEqual(expected);
      compared++;
    }
    expect(compared).toBeGreaterThan(40);
  });

  it('the page answers what the batched look-ups answer (reached from orders)', async () => {
    const session = allFields('Session', [...UPWARDS, 'Session.order']);
    const order = allFields('Order');
    const fromPage = await nodes(`${session} order { ${order} }`);
    const fromOrders = (await data(`{ orders(first: 20) { edges { node { ${order} session { id ${session} order { ${order} } } } } } }`)).orders.edges as {
      node: { session: Record<string, unknown> & { id: string } };
    }[];
    expect(fromOrders).toHaveLength(4);
    for (const { node } of fromOrders) {
      expect(fromPage.find((candidate) => candidate.id === node.session.id)).toEqual(node.session);
    }
  });
});
