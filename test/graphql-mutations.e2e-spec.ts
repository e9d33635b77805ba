import { CheckoutClient } from '../src/checkout/client/checkout-client';
import { Order } from '../src/orders/order.entity';
import { Refund } from '../src/orders/refund.entity';
import { PaymentSession } from '../src/session/session.entity';
import { card, checkoutParams, CheckoutTestApp, startCheckoutApp } from './setup/checkout';
import { sessionBody } from './setup/factories';
import { Credentials } from './setup/test-app';

/**
 * Mutations call SessionService / OrderService / RefundService: the same rules and the same codes as
 * the REST and Checkout interfaces, and the same stored result.
 */
describe('GraphQL for dashboards: mutations', () => {
  let c: CheckoutTestApp;
  let client: CheckoutClient;
  let merchant: Credentials;
  let readonly: Credentials;
  let admin: Credentials;
  let other: Credentials;

  beforeAll(async () => {
    c = await startCheckoutApp();
    client = c.client();
    merchant = await c.t.user(c.merchantId, 'merchant');
    readonly = await c.t.user(c.merchantId, 'readonly');
    admin = await c.t.user(null, 'admin');
    other = await c.t.merchantUser();
  });
  afterAll(() => c.t.close());

  const gql = (who: Credentials | null, query: string, variables?: Record<string, unknown>) => {
    const request = c.t.http().post('/graphql');
    if (who) request.auth(who.username, who.password);
    return request.send({ query, variables });
  };
  /** The one error of a refused mutation (data null), as { code, message }. */
  const refusal = async (who: Credentials | null, query: string, variables: Record<string, unknown>) => {
    const res = await gql(who, query, variables);
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    return { code: res.body.errors[0].extensions.code as string, message: res.body.errors[0].message as string };
  };
  const ok = async (who: Credentials, query: string, variables: Record<string, unknown>) => {
    const res = await gql(who, query, variables);
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  };

  const authorizedOrder = async () => (await client.checkout(checkoutParams({ Capture: false }), card())).OrderId;
  const capturedOrder = async () => (await client.checkout(checkoutParams(), card())).OrderId;
  const stateOf = async (orderId: string) => (await c.t.dataSource.getRepository(Order).findOneByOrFail({ id: orderId })).state;

  const CAPTURE = 'mutation($id: ID!) { captureOrder(id: $id) { id state captureDeadline processedAt total { amount currency } } }';
  const CANCEL_ORDER = 'mutation($id: ID!) { cancelOrder(id: $id) { id state cancelledAt } }';
  const REFUND = 'mutation($id: ID!, $ref: String!, $amount: String!) { refundOrder(id: $id, referenceId: $ref, amount: $amount) { id referenceId state amount { amount currency } order { id refunded { amount } } } }';
  const CANCEL_SESSION = 'mutation($id: ID!) { cancelSession(id: $id) { id state } }';

  describe('captureOrder and cancelOrder', () => {
    it('captures an authorized order as POST /capture does; a second capture answers the same', async () => {
      const id = await authorizedOrder();
      const first = (await ok(merchant, CAPTURE, { id })).captureOrder;
      expect(first).toEqual({ id, state: 'PROCESSED', captureDeadline: null, processedAt: expect.any(String), total: { amount: '24.50', currency: 'USD' } });
      expect((await ok(merchant, CAPTURE, { id })).captureOrder).toEqual(first);
      expect((await client.query({ OrderId: id })).OrderState).toBe('Processed');
    });

    it('cancels an authorization; capture then answers AlreadyCancelled, and cancelling a captured order AlreadyCaptured', async () => {
      const id = await authorizedOrder();
      expect((await ok(merchant, CANCEL_ORDER, { id })).cancelOrder).toEqual({ id, state: 'CANCELLED', cancelledAt: expect.any(String) });
      expect(await refusal(merchant, CAPTURE, { id })).toEqual({ code: 'AlreadyCancelled', message: expect.stringContaining('cancelled') });

      const captured = await capturedOrder();
      expect(await refusal(merchant, CANCEL_ORDER, { id: captured })).toEqual({ code: 'AlreadyCaptured', message: 'The order is already captured: refund it instead' });
      expect(await stateOf(captured)).toBe('Processed');
    });

    it("another merchant's order is OrderNotFound and stays untouched", async () => {
      const id = await authorizedOrder();
      expect((await refusal(other, CAPTURE, { id })).code).toBe('OrderNotFound');
      expect((await refusal(other, CANCEL_ORDER, { id })).code).toBe('OrderNotFound');
      expect((await refusal(other, REFUND, { id, ref: 'r-1', amount: '1.00' })).code).toBe('OrderNotFound');
      expect(await stateOf(id)).toBe('PaymentAuthorized');
    });
  });

  describe('refundOrder', () => {
    it('refunds partially and repeatedly up to the captured amount, with referenceId as idempotency key', async () => {
      const id = await capturedOrder();
      const first = (await ok(merchant, REFUND, { id, ref: 'refund-1', amount: '10.00' })).refundOrder;
      expect(first).toEqual({ id: expect.any(String), referenceId: 'refund-1', state: 'SUCCEEDED', amount: { amount: '10.00', currency: 'USD' }, order: { id, refunded: { amount: '10.00' } } });
      // The same referenceId and amount again: the same refund, nothing refunded twice.
      expect((await ok(merchant, REFUND, { id, ref: 'refund-1', amount: '10' })).refundOrder.id).toBe(first.id);
      expect(await refusal(merchant, REFUND, { id, ref: 'refund-1', amount: '9.00' })).toEqual({ code: 'ReferenceIdMismatch', message: expect.any(String) });
      expect(await refusal(merchant, REFUND, { id, ref: 'refund-2', amount: '14.51' })).toEqual({
        code: 'RefundLimitExceeded',
        message: 'The refunds of this order would exceed the captured amount',
      });
      expect((await ok(merchant, REFUND, { id, ref: 'refund-2', amount: '14.50' })).refundOrder.order.refunded).toEqual({ amount: '24.50' });
      expect(await c.t.dataSource.getRepository(Refund).countBy({ orderId: id })).toBe(2);
      expect((await client.query({ OrderId: id })).RefundedAmount).toBe('24.50');
    });

    it('refuses amounts that are not positive decimals in the order currency (AmountInvalid) and uncaptured orders (OrderStateInvalid)', async () => {
      const id = await capturedOrder();
      for (const amount of ['0', '-1', '1.001', 'ten', '1e3']) {
        expect((await refusal(merchant, REFUND, { id, ref: `bad-${amount}`, amount })).code).toBe('AmountInvalid');
      }
      const authorized = await authorizedOrder();
      expect((await refusal(merchant, REFUND, { id: authorized, ref: 'early', amount: '1.00' })).code).toBe('OrderStateInvalid');
      expect(await c.t.dataSource.getRepository(Refund).countBy({ orderId: id })).toBe(0);
    });
  });

  describe('cancelSession', () => {
    const createSession = async () => {
      const res = await c.t.http().post('/v2.22/session').auth(merchant.username, merchant.password).send(sessionBody());
      expect(res.status).toBe(201);
      return res.body.SessionId as string;
    };

    it('cancels a CREATED session; again is INVALID_SESSION_STATE naming both states', async () => {
      const id = await createSession();
      expect((await ok(merchant, CANCEL_SESSION, { id })).cancelSession).toEqual({ id, state: 'CANCELLED' });
      expect(await refusal(merchant, CANCEL_SESSION, { id })).toEqual({
        code: 'INVALID_SESSION_STATE',
        message: 'Session cannot be CANCELLED as it is already CANCELLED',
      });
      const rest = await c.t.http().get(`/v2.22/session/${id}`).auth(merchant.username, merchant.password);
      expect(rest.body.State).toBe('CANCELLED');
    });

    it("another merchant's (or an unknown) session is SESSION_NOT_FOUND", async () => {
      const id = await createSession();
      expect(await refusal(other, CANCEL_SESSION, { id })).toEqual({ code: 'SESSION_NOT_FOUND', message: 'No session exists for the given session ID' });
      expect((await refusal(merchant, CANCEL_SESSION, { id: '7f1c2f7e-0b7a-4f0e-9a55-0e5c8c1d2e3f' })).code).toBe('SESSION_NOT_FOUND');
      expect((await c.t.dataSource.getRepository(PaymentSession).findOneByOrFail({ id })).state).toBe('CREATED');
    });
  });

  describe('who may mutate', () => {
    it('readonly users and admins get NOT_AUTHORIZED for every mutation, and nothing changes', async () => {
      const authorized = await authorizedOrder();
      const captured = await capturedOrder();
      const session = (await c.t.http().post('/v2.22/session').auth(merchant.username, merchant.password).send(sessionBody())).body.SessionId;
      for (const who of [readonly, admin]) {
        for (const [query, variables] of [
          [CAPTURE, { id: authorized }],
          [CANCEL_ORDER, { id: authorized }],
          [REFUND, { id: captured, ref: 'not-allowed', amount: '1.00' }],
          [CANCEL_SESSION, { id: session }],
        ] as const) {
          expect(await refusal(who, query, variables)).toEqual({ code: 'NOT_AUTHORIZED', message: 'User is not permitted to access this resource' });
        }
      }
      expect(await stateOf(authorized)).toBe('PaymentAuthorized');
      expect(await c.t.dataSource.getRepository(Refund).countBy({ orderId: captured })).toBe(0);
      expect((await c.t.dataSource.getRepository(PaymentSession).findOneByOrFail({ id: session })).state).toBe('CREATED');
    });

    it('without credentials: 401 AUTHENTICATION_REQUIRED with a Basic challenge, and nothing runs', async () => {
      const id = await authorizedOrder();
      const res = await gql(null, CAPTURE, { id });
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Basic realm=/);
      expect(res.body.errors).toEqual([expect.objectContaining({ extensions: { code: 'AUTHENTICATION_REQUIRED' } })]);
      expect(await stateOf(id)).toBe('PaymentAuthorized');
    });
  });
});
