import { rowCounts } from './setup/row-counts';
import { sessionBody } from './setup/factories';
import { Credentials, startTestApp, TestApp } from './setup/test-app';

describe('Session referring to a tax quote (TaxQuoteId)', () => {
  let t: TestApp;
  let m: Credentials;

  beforeAll(async () => {
    t = await startTestApp();
    m = await t.merchantUser();
  });
  afterAll(() => t.close());

  const quote = async (who: Credentials, currency = 'CAD') => {
    const res = await t.http().post('/v1/tax/quote').auth(who.username, who.password).send({
      Currency: currency,
      Items: [{ Sku: 'TEE', Amount: 24, Quantity: 2 }],
      ShippingAddress: { Country: 'CA', Region: 'ON', Postcode: 'M5V 2T6' },
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const createSession = (body: Record<string, unknown>) => t.http().post('/v2.22/session').auth(m.username, m.password).send(body);

  it('takes its TaxAmount from the quote when none is sent, and echoes TaxQuoteId', async () => {
    const q = await quote(m);
    expect(q.TaxAmount).toBe(3.12); // 13 % HST on 24
    const res = await createSession(sessionBody({ Currency: 'CAD', Items: [{ Name: 'Tee', Amount: 12, Quantity: 2 }], TaxQuoteId: q.Id }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ TaxQuoteId: q.Id, TaxAmount: 3.12, TotalAmount: 27.12 });
    expect((await t.http().get(`/v2.22/session/${res.body.SessionId}`).auth(m.username, m.password)).body).toEqual(res.body);
  });

  it('keeps an explicit TaxAmount', async () => {
    const q = await quote(m);
    const res = await createSession(sessionBody({ Currency: 'CAD', Items: [{ Name: 'Tee', Amount: 24, Quantity: 1 }], TaxQuoteId: q.Id, TaxAmount: 2 }));
    expect(res.body).toMatchObject({ TaxAmount: 2, TotalAmount: 26 });
  });

  it.each([
    ['a quote in another currency', async () => (await quote(m, 'USD')).Id, /USD/],
    ["another merchant's quote", async () => (await quote(await t.merchantUser())).Id, /no tax quote/],
    ['an unknown quote', async () => '3f2b8a9e-4c1d-4e7a-9b6f-1a2b3c4d5e6f', /no tax quote/],
  ])('refuses %s with a FieldError on TaxQuoteId, writing nothing', async (_, quoteId, message) => {
    const id = await quoteId();
    const before = await rowCounts(t.dataSource);
    const res = await createSession(sessionBody({ Currency: 'CAD', TaxQuoteId: id }));
    expect(res.status).toBe(400);
    expect(res.body.FieldErrors).toEqual([expect.objectContaining({ Field: 'TaxQuoteId', Code: 'FIELD_INVALID', Message: expect.stringMatching(message) })]);
    expect(await rowCounts(t.dataSource)).toEqual(before);
  });
});
