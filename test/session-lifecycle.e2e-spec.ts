import { PaymentSession } from '../src/session/session.entity';
import { SessionState } from '../src/session/session-state';
import { sessionBody } from './setup/factories';
import { Credentials, startTestApp, TestApp } from './setup/test-app';

describe('Session interface: retrieve, update, cancel, expiry and states', () => {
  let t: TestApp;
  let m: Credentials;

  beforeAll(async () => {
    t = await startTestApp({ SESSION_TTL_SECONDS: '120' });
    m = await t.merchantUser();
  });
  afterAll(() => t.close());

  const create = (body = sessionBody()) => t.http().post('/v2.22/session').auth(m.username, m.password).send(body);
  const get = (id: string) => t.http().get(`/v2.22/session/${id}`).auth(m.username, m.password);
  const put = (id: string, body: object) => t.http().put(`/v2.22/session/${id}`).auth(m.username, m.password).send(body);
  const cancel = (id: string) => t.http().delete(`/v2.22/session/${id}`).auth(m.username, m.password);
  const forceState = (id: string, state: SessionState) =>
    t.dataSource.createQueryBuilder().update(PaymentSession).set({ state }).where('id = :id', { id }).execute();
  const forceExpiry = (id: string, expiresAt: Date) =>
    t.dataSource.createQueryBuilder().update(PaymentSession).set({ expiresAt }).where('id = :id', { id }).execute();

  it('retrieve returns exactly what create returned', async () => {
    const created = await create();
    expect(created.status).toBe(201);
    const read = await get(created.body.SessionId);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it('sessions expire after the configured TTL', async () => {
    const before = Date.now();
    const created = await create();
    const expiresAt = Date.parse(created.body.ExpiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 120_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 120_000 + 1000);
  });

  it('update replaces the whole session and recalculates TotalAmount', async () => {
    const created = await create(
      sessionBody({ TaxAmount: 1, Discounts: [{ Name: 'promo', Amount: 2 }], ViaAgent: true, AllowContract: true }),
    );
    const id = created.body.SessionId;
    const replacement = sessionBody({
      MerchantReference: 'replaced-ref',
      Currency: 'JPY',
      AutoCapture: false,
      Items: [{ Name: 'Tea', Amount: 1500, Quantity: 3 }],
      BillingProfile: undefined,
      BillingProfileId: created.body.BillingProfileId,
    });
    const updated = await put(id, replacement);
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      SessionId: id,
      State: 'CREATED',
      MerchantReference: 'replaced-ref',
      Currency: 'JPY',
      AutoCapture: false,
      Items: [{ Name: 'Tea', Amount: 1500, Quantity: 3 }],
      TotalAmount: 4500,
      ViaAgent: false,
      BillingProfileId: created.body.BillingProfileId,
    });
    // Fields absent from the replacement are gone, not kept from before.
    expect(updated.body).not.toHaveProperty('TaxAmount');
    expect(updated.body).not.toHaveProperty('Discounts');
    expect(updated.body).not.toHaveProperty('AllowContract');
    expect((await get(id)).body).toEqual(updated.body);
  });

  it('update may keep its own MerchantReference but not take another session\'s (409), and changes nothing then', async () => {
    const first = await create();
    const second = await create();
    const same = await put(first.body.SessionId, sessionBody({ MerchantReference: first.body.MerchantReference }));
    expect(same.status).toBe(200);

    const clash = await put(second.body.SessionId, sessionBody({ MerchantReference: first.body.MerchantReference }));
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual({ Code: 'DUPLICATE_MERCHANT_REFERENCE_ID', Message: 'Session with merchant reference already exists', RequestId: expect.any(String) });
    expect((await get(second.body.SessionId)).body).toEqual(second.body);
    // The failed update released the session: the next one goes through.
    expect((await put(second.body.SessionId, sessionBody())).status).toBe(200);
  });

  it('an invalid update is 400 and leaves the session as it was', async () => {
    const created = await create();
    const bad = await put(created.body.SessionId, sessionBody({ Items: [] }));
    expect(bad.status).toBe(400);
    expect(bad.body.Code).toBe('INVALID_REQUEST');
    expect((await get(created.body.SessionId)).body).toEqual(created.body);
  });

  it('cancel: CREATED → CANCELLED with 204 and no body; then neither cancel nor update', async () => {
    const created = await create();
    const id = created.body.SessionId;
    const cancelled = await cancel(id);
    expect(cancelled.status).toBe(204);
    expect(cancelled.text).toBe('');
    expect((await get(id)).body.State).toBe('CANCELLED');

    const again = await cancel(id);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ Code: 'INVALID_SESSION_STATE', Message: 'Session cannot be CANCELLED as it is already CANCELLED', RequestId: expect.any(String) });
    const update = await put(id, sessionBody());
    expect(update.status).toBe(409);
    expect(update.body).toEqual({ Code: 'INVALID_SESSION_STATE', Message: 'Session cannot be UPDATED as it is already CANCELLED', RequestId: expect.any(String) });
  });

  it.each([SessionState.Completed, SessionState.Processing, SessionState.Redirected, SessionState.Failed])(
    'a %s session can be neither cancelled nor updated (409 INVALID_SESSION_STATE)',
    async (state) => {
      const created = await create();
      const id = created.body.SessionId;
      await forceState(id, state);
      const del = await cancel(id);
      expect(del.status).toBe(409);
      expect(del.body).toEqual({ Code: 'INVALID_SESSION_STATE', Message: `Session cannot be CANCELLED as it is already ${state}`, RequestId: expect.any(String) });
      const update = await put(id, sessionBody());
      expect(update.status).toBe(409);
      expect(update.body.Message).toBe(`Session cannot be UPDATED as it is already ${state}`);
      expect((await get(id)).body.State).toBe(state);
    },
  );

  it('a CREATED session past its expiry reads as EXPIRED and refuses update and cancel', async () => {
    const created = await create();
    const id = created.body.SessionId;
    await forceExpiry(id, new Date(Date.now() - 1000));

    const read = await get(id);
    expect(read.status).toBe(200);
    expect(read.body.State).toBe('EXPIRED');
    expect((await cancel(id)).body).toEqual({ Code: 'INVALID_SESSION_STATE', Message: 'Session cannot be CANCELLED as it is already EXPIRED', RequestId: expect.any(String) });
    expect((await put(id, sessionBody())).body.Message).toBe('Session cannot be UPDATED as it is already EXPIRED');
  });

  it('expiry is applied even when the first call after it is a write', async () => {
    const created = await create();
    const id = created.body.SessionId;
    await forceExpiry(id, new Date(Date.now() - 1000));
    const del = await cancel(id);
    expect(del.status).toBe(409);
    expect(del.body.Message).toBe('Session cannot be CANCELLED as it is already EXPIRED');
    const [row] = await t.dataSource.getRepository(PaymentSession).findBy({ id });
    expect(row.state).toBe(SessionState.Expired);
  });

  it('an unknown but well-formed SessionId is 404 SESSION_NOT_FOUND for every operation', async () => {
    const id = '3f2b8a9e-4c1d-4e7a-9b6f-1a2b3c4d5e6f';
    for (const res of [await get(id), await put(id, sessionBody()), await cancel(id)]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ Code: 'SESSION_NOT_FOUND', Message: 'No session exists for the given session ID', RequestId: expect.any(String) });
    }
  });
});
