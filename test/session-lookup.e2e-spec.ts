import { OrderState } from '../src/orders/order-state';
import { BillingProfile } from '../src/session/billing-profile.entity';
import { PaymentSession } from '../src/session/session.entity';
import { SessionLookup } from '../src/session/session-lookup';
import { billingProfile, sessionBody, shippingDetails } from './setup/factories';
import { completeSessionIntoOrder } from './setup/orders';
import { Credentials, startTestApp, TestApp } from './setup/test-app';

/**
 * Session retrieve reads through SessionLookup (SQL text, hydrated column by column), not TypeORM's
 * query builder. For sessions unlike each other in every column, it must give what TypeORM gives.
 */
describe('SessionLookup: the session and its billing profile as TypeORM reads them', () => {
  let t: TestApp;
  let shop: Credentials;
  let other: Credentials;
  let lookup: SessionLookup;
  const ids: string[] = [];

  const typeormRead = (id: string) =>
    t.dataSource
      .getRepository(PaymentSession)
      .createQueryBuilder('session')
      .innerJoinAndMapOne('session.billingProfile', BillingProfile, 'profile', 'profile.id = session.billingProfileId')
      .where('session.id = :id', { id })
      .getOne();

  beforeAll(async () => {
    t = await startTestApp({ SCHEDULER_ENABLED: 'false' });
    shop = await t.merchantUser();
    other = await t.merchantUser();
    lookup = t.app.get(SessionLookup);
    const create = async (overrides: Record<string, unknown> = {}) => {
      const res = await t.http().post('/v2.22/session').auth(shop.username, shop.password).send(sessionBody(overrides));
      expect(res.status).toBe(201);
      ids.push(res.body.SessionId);
      return res.body as { SessionId: string; MerchantReference: string };
    };
    await create();
    await create({ Currency: 'JPY', Items: [{ Name: 'Tea', Amount: 1500, Quantity: 2 }], ViaAgent: true, AllowContract: true, OpenContract: false });
    await create({ TaxAmount: 1.5, Discounts: [{ Name: 'Promo', Amount: 2 }], ShippingDetails: shippingDetails({ ShippingAmount: 5, DutyAmount: 2.5 }) });
    await create({ Currency: 'KWD', Items: [{ Name: 'Oud', Amount: 12.345, Quantity: 1 }], AutoCapture: false });
    await create({ BillingProfile: billingProfile({ Name: 'Zoë Ünicode', Phone: '+14155550100' }) });
    const lapsed = await create();
    await t.dataSource.getRepository(PaymentSession).update({ id: lapsed.SessionId }, { expiresAt: new Date(Date.now() - 1000) });
    await completeSessionIntoOrder(t.dataSource, await create(), { state: OrderState.PaymentAuthorized });
  });
  afterAll(() => t.close());

  it('reads every column of the session and of its billing profile as TypeORM does', async () => {
    for (const id of ids) {
      const expected = await typeormRead(id);
      expect(expected).not.toBeNull();
      const found = await lookup.withProfile(id, shop.merchantId);
      expect(found).toEqual(expected);
      // Dates stay Dates, amounts numbers: what the mappers expect.
      expect(found!.createdAt).toBeInstanceOf(Date);
      expect(found!.billingProfile.id).toBe(found!.billingProfileId);
    }
  });

  it("finds the session for an admin (no merchant), and not for another merchant or an unknown id", async () => {
    expect(await lookup.withProfile(ids[0], null)).toEqual(await typeormRead(ids[0]));
    expect(await lookup.withProfile(ids[0], other.merchantId)).toBeNull();
    expect(await lookup.withProfile('00000000-0000-4000-8000-000000000000', shop.merchantId)).toBeNull();
  });
});
