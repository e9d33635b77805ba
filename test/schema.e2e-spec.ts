import { BillingProfile } from '../src/session/billing-profile.entity';
import { sessionBody, billingProfile } from './setup/factories';
import { startTestApp, TestApp } from './setup/test-app';

describe('Database schema and transactions', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('the migrated schema equals the entities (nothing left for synchronize to do)', async () => {
    const pending = await t.dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('records every migration as applied', async () => {
    const rows: { name: string }[] = await t.dataSource.query('SELECT name FROM migrations');
    expect(rows.map((r) => r.name)).toEqual(t.dataSource.migrations.map((m) => m.name));
  });

  it('rolls back the whole unit of work: a failed session insert leaves no billing profile behind', async () => {
    const m = await t.merchantUser();
    const first = sessionBody();
    expect((await t.http().post('/v2.22/session').auth(m.username, m.password).send(first)).status).toBe(201);

    const clash = sessionBody({
      MerchantReference: first.MerchantReference,
      BillingProfile: billingProfile({ BillingProfileReference: 'must-not-exist' }),
    });
    const res = await t.http().post('/v2.22/session').auth(m.username, m.password).send(clash);
    expect(res.status).toBe(409);
    expect(await t.dataSource.getRepository(BillingProfile).countBy({ reference: 'must-not-exist' })).toBe(0);
  });
});

describe('Identifiers compare exactly on every database', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('merchant references that differ in case, accents or trailing spaces are different references', async () => {
    const m = await t.merchantUser();
    for (const reference of ['Case-X', 'case-x', 'case-x ', 'cäse-x']) {
      const res = await t.http().post('/v2.22/session').auth(m.username, m.password).send(sessionBody({ MerchantReference: reference }));
      expect([reference, res.status]).toEqual([reference, 201]);
      expect(res.body.MerchantReference).toBe(reference);
    }
  });

  it('Idempotency-Keys are case-sensitive', async () => {
    const m = await t.merchantUser();
    const send = (key: string) =>
      t.http().post('/v2.22/session').auth(m.username, m.password).set('Idempotency-Key', key).send(sessionBody());
    expect((await send('KEY-1')).status).toBe(201);
    expect((await send('key-1')).status).toBe(201);
  });
});
