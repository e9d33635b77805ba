import type { Response } from 'supertest';
import { billingProfile, sessionBody, shippingDetails } from './setup/factories';
import { rowCounts } from './setup/row-counts';
import { Credentials, startTestApp, TestApp } from './setup/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const INVALID_REQUEST = { Code: 'INVALID_REQUEST', Message: 'Invalid request syntax', RequestId: expect.any(String) };
const INVALID_CURRENCY = { Code: 'INVALID_CURRENCY', Message: 'Provided currency is not supported', RequestId: expect.any(String) };
const NOT_A_UUID = { Code: 'VALIDATION_ERROR', Message: 'Not a valid UUID', RequestId: expect.any(String) };
const UNSUPPORTED_MEDIA_TYPE = { Code: 'UNSUPPORTED_MEDIA_TYPE', Message: 'Expected content-type: application/json', RequestId: expect.any(String) };

type Body = Record<string, unknown>;
type FieldCode = 'FIELD_MISSING' | 'FIELD_INVALID' | 'FIELD_UNKNOWN' | 'FIELD_CONFLICT';

/** sessionBody() with keys removed (a PUT replaces the session, so it must carry them as create does). */
function without(...keys: string[]): Body {
  const body = sessionBody();
  for (const key of keys) delete body[key];
  return body;
}

describe('Session interface: create and update validation', () => {
  let t: TestApp;
  let merchant: Credentials;

  beforeAll(async () => {
    t = await startTestApp();
    merchant = await t.merchantUser();
  });
  afterAll(() => t.close());

  const post = (body: unknown) =>
    t.http().post('/v2.22/session').auth(merchant.username, merchant.password).send(body as object);
  const put = (id: string, body: unknown) =>
    t.http().put(`/v2.22/session/${id}`).auth(merchant.username, merchant.password).send(body as object);
  const get = (id: string) => t.http().get(`/v2.22/session/${id}`).auth(merchant.username, merchant.password);

  async function created(body: Body = sessionBody()): Promise<Response> {
    const res = await post(body);
    expect(res.status).toBe(201);
    return res;
  }

  /** Sends a request that must be refused with `status`, and checks that no session or billing profile was written. */
  async function refused(send: () => PromiseLike<Response>, status: number): Promise<Response> {
    const before = await rowCounts(t.dataSource);
    const res = await send();
    expect({ status: res.status, body: res.body }).toEqual({ status, body: expect.anything() });
    expect(await rowCounts(t.dataSource)).toEqual(before);
    return res;
  }

  /** 400 INVALID_REQUEST whose FieldErrors name exactly these fields with these codes (any order). */
  function expectFieldErrors(res: Response, expected: [string, FieldCode][]): void {
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ ...INVALID_REQUEST, FieldErrors: expect.any(Array) });
    for (const error of res.body.FieldErrors) {
      expect(error).toEqual({ Field: expect.any(String), Code: expect.any(String), Message: expect.stringMatching(/\S/) });
    }
    const actual = (res.body.FieldErrors as { Field: string; Code: string }[]).map((e) => [e.Field, e.Code]);
    expect(actual.sort()).toEqual([...expected].sort());
  }

  /** POST must fail with exactly these FieldErrors and write nothing. */
  async function rejects(body: unknown, expected: [string, FieldCode][]): Promise<Response> {
    const res = await refused(() => post(body), 400);
    expectFieldErrors(res, expected);
    return res;
  }

  describe('a valid request', () => {
    it('201 with the full session: new SessionId, CREATED, new billing profile, amounts and expiry', async () => {
      const profile = billingProfile({ BillingProfileReference: 'bp-happy-path', Phone: '+1 416 555 0199' });
      const body = sessionBody({
        MerchantReference: 'order-happy-path',
        AutoCapture: false,
        Currency: 'CAD',
        Items: [
          { Name: 'T-shirt', Amount: 19.99, Quantity: 2 },
          { Name: 'Cap', Amount: 5, Quantity: 1 },
        ],
        BillingProfile: profile,
        ViaAgent: true,
        ShippingDetails: shippingDetails(),
        TaxAmount: 3.25,
        Discounts: [{ Name: 'Welcome', Amount: 4.5 }],
        AllowContract: true,
        OpenContract: false,
      });
      const before = await rowCounts(t.dataSource);
      const startedAt = Date.now();
      const res = await post(body);

      expect(res.status).toBe(201);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const profileId = res.body.BillingProfileId;
      expect(profileId).toMatch(UUID);
      expect(res.body).toEqual({
        SessionId: expect.stringMatching(UUID),
        State: 'CREATED',
        MerchantReference: 'order-happy-path',
        AutoCapture: false,
        CompleteUrl: 'https://shop.example.com/complete?session={SessionId}',
        CancelUrl: 'https://shop.example.com/cart',
        Currency: 'CAD',
        Items: [
          { Name: 'T-shirt', Amount: 19.99, Quantity: 2 },
          { Name: 'Cap', Amount: 5, Quantity: 1 },
        ],
        BillingProfile: {
          BillingProfileId: profileId,
          BillingProfileReference: 'bp-happy-path',
          Name: 'Jo Doe',
          Email: 'jo@example.com',
          Phone: '+1 416 555 0199',
          Address: { Street: '1 Main St', City: 'Toronto', Region: 'ON', Country: 'CA', Postcode: 'M5V 2T6' },
        },
        BillingProfileId: profileId,
        ViaAgent: true,
        ShippingDetails: shippingDetails(),
        TaxAmount: 3.25,
        Discounts: [{ Name: 'Welcome', Amount: 4.5 }],
        AllowContract: true,
        OpenContract: false,
        // 19.99 × 2 + 5 + 3.25 (tax) + 5 (shipping) + 2.5 (duty) − 4.5
        TotalAmount: 51.23,
        ExpiresAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      });
      const ttl = Date.parse(res.body.ExpiresAt) - startedAt;
      expect(ttl).toBeGreaterThan(24 * 3600_000 - 60_000);
      expect(ttl).toBeLessThan(24 * 3600_000 + 60_000);
      expect(await rowCounts(t.dataSource)).toEqual({
        payment_session: before.payment_session + 1,
        billing_profile: before.billing_profile + 1,
      });

      const read = await get(res.body.SessionId);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(res.body);
    });

    it('a minimal request gets ViaAgent false and no optional fields, and each session a new SessionId', async () => {
      const first = await created(sessionBody());
      const second = await created(sessionBody());
      expect(first.body.SessionId).not.toBe(second.body.SessionId);
      expect(first.body.BillingProfileId).not.toBe(second.body.BillingProfileId);
      expect(first.body.ViaAgent).toBe(false);
      for (const key of ['BillingProfileReference', 'ShippingDetails', 'TaxAmount', 'Discounts', 'AllowContract', 'OpenContract', 'Order']) {
        expect(first.body).not.toHaveProperty(key);
      }
      expect(first.body.BillingProfile).not.toHaveProperty('BillingProfileReference');
      expect((await get(first.body.SessionId)).body).toEqual(first.body);
    });

    it.each([
      [true, true],
      [false, false],
      [undefined, false],
    ])('ViaAgent %p is stored and returned as %p (also by GET)', async (sent, returned) => {
      const res = await created(sessionBody({ ViaAgent: sent }));
      expect(res.body.ViaAgent).toBe(returned);
      expect((await get(res.body.SessionId)).body.ViaAgent).toBe(returned);
    });

    it('ViaAgent true sent on update is returned as true', async () => {
      const { body } = await created(sessionBody());
      const res = await put(body.SessionId, sessionBody({ MerchantReference: body.MerchantReference, ViaAgent: true }));
      expect(res.status).toBe(200);
      expect(res.body.ViaAgent).toBe(true);
      expect((await get(body.SessionId)).body).toEqual(res.body);
    });
  });

  describe('TotalAmount', () => {
    const example = {
      Items: [
        { Name: 'A', Amount: 10, Quantity: 1 },
        { Name: 'B', Amount: 12, Quantity: 2 },
      ],
      Discounts: [
        { Name: 'D1', Amount: 2 },
        { Name: 'D2', Amount: 3 },
      ],
      TaxAmount: 1,
    };

    it("the spec's example: 10×1 + 12×2 + 1 − (2 + 3) = 30", async () => {
      const res = await created(sessionBody(example));
      expect(res.body.TotalAmount).toBe(30);
      expect(res.body.Items).toEqual(example.Items);
      expect(res.body.Discounts).toEqual(example.Discounts);
      expect(res.body.TaxAmount).toBe(1);
    });

    it('ShippingAmount and DutyAmount are added', async () => {
      const res = await created(sessionBody({ ...example, ShippingDetails: shippingDetails({ ShippingAmount: 7.5, DutyAmount: 2.25 }) }));
      expect(res.body.TotalAmount).toBe(39.75);
      expect(res.body.ShippingDetails).toMatchObject({ ShippingAmount: 7.5, DutyAmount: 2.25 });
    });

    it('is exact decimal arithmetic, not binary floats (0.1 × 3 + 0.2 = 0.5)', async () => {
      const res = await created(sessionBody({ Items: [{ Name: 'A', Amount: 0.1, Quantity: 3 }], TaxAmount: 0.2 }));
      expect(res.body.TotalAmount).toBe(0.5);
    });

    it('discounts that bring the total to exactly zero are accepted', async () => {
      const res = await created(sessionBody({ Items: [{ Name: 'A', Amount: 10, Quantity: 1 }], Discounts: [{ Name: 'All', Amount: 10 }] }));
      expect(res.body.TotalAmount).toBe(0);
    });

    it('is recalculated by an update', async () => {
      const { body } = await created(sessionBody(example));
      const res = await put(body.SessionId, sessionBody({ MerchantReference: body.MerchantReference, Items: [{ Name: 'A', Amount: 3, Quantity: 4 }] }));
      expect(res.status).toBe(200);
      expect(res.body.TotalAmount).toBe(12);
      expect(res.body).not.toHaveProperty('Discounts');
      expect(res.body).not.toHaveProperty('TaxAmount');
    });

    it('a total made negative by discounts is 400 with a FieldError on Discounts', async () => {
      await rejects(sessionBody({ Items: [{ Name: 'A', Amount: 10, Quantity: 1 }], Discounts: [{ Name: 'Too much', Amount: 10.01 }] }), [
        ['Discounts', 'FIELD_INVALID'],
      ]);
      await rejects(sessionBody({ ...example, Discounts: [{ Name: 'D1', Amount: 20 }, { Name: 'D2', Amount: 16 }] }), [
        ['Discounts', 'FIELD_INVALID'],
      ]);
    });

    it.each([
      ['zero', 0],
      ['negative', -1],
      ['a string', '2'],
    ])('a Discount Amount that is %s is rejected', async (_label, amount) => {
      await rejects(sessionBody({ Discounts: [{ Name: 'D', Amount: amount }] }), [['Discounts[0].Amount', 'FIELD_INVALID']]);
    });

    it('a Discount needs a Name and an Amount', async () => {
      await rejects(sessionBody({ Discounts: [{ Amount: 1 }, { Name: 'D' }] }), [
        ['Discounts[0].Name', 'FIELD_MISSING'],
        ['Discounts[1].Amount', 'FIELD_MISSING'],
      ]);
    });
  });

  describe('amounts and the currency minor units', () => {
    it.each([
      ['JPY', 1500],
      ['CLP', 990],
      ['USD', 19.99],
      ['EUR', 0.01],
      ['KWD', 1.234],
      ['BHD', 0.005],
    ])('%s accepts Items[0].Amount %p', async (currency, amount) => {
      const res = await created(sessionBody({ Currency: currency, Items: [{ Name: 'A', Amount: amount, Quantity: 1 }] }));
      expect(res.body.Items[0].Amount).toBe(amount);
      expect(res.body.TotalAmount).toBe(amount);
      expect((await get(res.body.SessionId)).body.TotalAmount).toBe(amount);
    });

    it.each([
      ['JPY', 1500.5],
      ['JPY', 0.1],
      ['CLP', 1.5],
      ['USD', 19.999],
      ['USD', 0.001],
      ['EUR', 1e-7],
      ['KWD', 1.2345],
      ['BHD', 0.0001],
    ])('%s rejects Items[0].Amount %p', async (currency, amount) => {
      await rejects(sessionBody({ Currency: currency, Items: [{ Name: 'A', Amount: amount, Quantity: 1 }] }), [
        ['Items[0].Amount', 'FIELD_INVALID'],
      ]);
    });

    it('names the item that has too many decimals', async () => {
      const items = [
        { Name: 'A', Amount: 1, Quantity: 1 },
        { Name: 'B', Amount: 2.5, Quantity: 1 },
        { Name: 'C', Amount: 3.75, Quantity: 1 },
      ];
      await rejects(sessionBody({ Currency: 'JPY', Items: items }), [
        ['Items[1].Amount', 'FIELD_INVALID'],
        ['Items[2].Amount', 'FIELD_INVALID'],
      ]);
    });

    it.each([
      ['TaxAmount', 'USD', { TaxAmount: 0.005 }],
      ['TaxAmount', 'JPY', { TaxAmount: 1.5 }],
      ['ShippingDetails.ShippingAmount', 'USD', { ShippingDetails: shippingDetails({ ShippingAmount: 4.999 }) }],
      ['ShippingDetails.ShippingAmount', 'JPY', { ShippingDetails: shippingDetails({ ShippingAmount: 500.5, DutyAmount: 0 }) }],
      ['ShippingDetails.DutyAmount', 'USD', { ShippingDetails: shippingDetails({ DutyAmount: 0.125 }) }],
      ['ShippingDetails.DutyAmount', 'KWD', { ShippingDetails: shippingDetails({ DutyAmount: 0.0005 }) }],
      ['Discounts[0].Amount', 'USD', { Discounts: [{ Name: 'D', Amount: 0.015 }] }],
      ['Discounts[0].Amount', 'JPY', { Discounts: [{ Name: 'D', Amount: 0.5 }] }],
    ])('%s with too many decimals for %s is rejected', async (field, currency, changes) => {
      const items = [{ Name: 'A', Amount: 1000, Quantity: 1 }];
      await rejects(sessionBody({ Currency: currency, Items: items, ...changes }), [[field, 'FIELD_INVALID']]);
    });

    it('KWD takes three decimals in every amount field', async () => {
      const res = await created(
        sessionBody({
          Currency: 'KWD',
          Items: [{ Name: 'A', Amount: 10.5, Quantity: 2 }],
          TaxAmount: 0.125,
          ShippingDetails: shippingDetails({ ShippingAmount: 1.005, DutyAmount: 0.5 }),
          Discounts: [{ Name: 'D', Amount: 0.001 }],
        }),
      );
      expect(res.body).toMatchObject({ TaxAmount: 0.125, Discounts: [{ Name: 'D', Amount: 0.001 }], TotalAmount: 22.629 });
      expect(res.body.ShippingDetails).toMatchObject({ ShippingAmount: 1.005, DutyAmount: 0.5 });
    });

    it.each([
      ['a negative item Amount', { Items: [{ Name: 'A', Amount: -1, Quantity: 1 }] }, 'Items[0].Amount'],
      ['a negative TaxAmount', { TaxAmount: -0.5 }, 'TaxAmount'],
      ['a negative ShippingAmount', { ShippingDetails: shippingDetails({ ShippingAmount: -5 }) }, 'ShippingDetails.ShippingAmount'],
      ['a negative DutyAmount', { ShippingDetails: shippingDetails({ DutyAmount: -1 }) }, 'ShippingDetails.DutyAmount'],
      ['an absurdly large Amount', { Items: [{ Name: 'A', Amount: 1e300, Quantity: 1 }] }, 'Items[0].Amount'],
      ['a string Amount', { Items: [{ Name: 'A', Amount: '10', Quantity: 1 }] }, 'Items[0].Amount'],
      ['a string Quantity', { Items: [{ Name: 'A', Amount: 10, Quantity: '1' }] }, 'Items[0].Quantity'],
      ['a string TaxAmount', { TaxAmount: '1.00' }, 'TaxAmount'],
      ['a string ShippingAmount', { ShippingDetails: shippingDetails({ ShippingAmount: '5' }) }, 'ShippingDetails.ShippingAmount'],
      ['a boolean Amount', { Items: [{ Name: 'A', Amount: true, Quantity: 1 }] }, 'Items[0].Amount'],
      ['Quantity 0', { Items: [{ Name: 'A', Amount: 10, Quantity: 0 }] }, 'Items[0].Quantity'],
      ['Quantity 1.5', { Items: [{ Name: 'A', Amount: 10, Quantity: 1.5 }] }, 'Items[0].Quantity'],
      ['Quantity -2', { Items: [{ Name: 'A', Amount: 10, Quantity: -2 }] }, 'Items[0].Quantity'],
      ['Items []', { Items: [] }, 'Items'],
      ['an empty item Name', { Items: [{ Name: '', Amount: 10, Quantity: 1 }] }, 'Items[0].Name'],
      ['AutoCapture as a string', { AutoCapture: 'true' }, 'AutoCapture'],
      ['ViaAgent as a number', { ViaAgent: 1 }, 'ViaAgent'],
      ['MerchantReference as a number', { MerchantReference: 1001 }, 'MerchantReference'],
      ['an empty MerchantReference', { MerchantReference: '' }, 'MerchantReference'],
    ])('%s is rejected', async (_label, changes, field) => {
      await rejects(sessionBody(changes), [[field, 'FIELD_INVALID']]);
    });
  });

  describe('Currency', () => {
    it.each(['usd', 'US', 'USDX', '', 5, true])('%p is 400 INVALID_REQUEST with a FieldError on Currency', async (currency) => {
      await rejects(sessionBody({ Currency: currency }), [['Currency', 'FIELD_INVALID']]);
    });

    it.each(['XAU', 'ABC', 'XXX'])('%s (well formed, not supported) is 400 INVALID_CURRENCY without FieldErrors', async (currency) => {
      const res = await refused(() => post(sessionBody({ Currency: currency })), 400);
      expect(res.body).toEqual(INVALID_CURRENCY);
    });

    it('every currency of the spec list is accepted', async () => {
      const list = 'USD EUR CAD GBP AUD BRL JPY MXN CHF SGD ILS NZD HKD AED SEK SAR DKK NOK RUB MYR PHP THB KRW INR CLP PLN ' +
        'TWD TRY CZK KWD QAR ZAR HUF RON PEN IDR CNY EGP ARS COP ISK UAH HRK BND BHD CRC PKR BGN VND LKR MOP MAD ' +
        'GTQ BMD OMR RSD DOP PAB LBP TTD';
      const refusedCodes: string[] = [];
      for (const currency of list.split(' ')) {
        const res = await post(sessionBody({ Currency: currency, Items: [{ Name: 'A', Amount: 100, Quantity: 1 }] }));
        if (res.status !== 201 || res.body.Currency !== currency || res.body.TotalAmount !== 100) refusedCodes.push(currency);
      }
      expect(refusedCodes).toEqual([]);
    });
  });

  describe('required and unknown fields', () => {
    it.each(['MerchantReference', 'AutoCapture', 'CompleteUrl', 'CancelUrl', 'Currency', 'Items'])(
      'a request without %s gets FIELD_MISSING on it',
      async (field) => {
        await rejects(without(field), [[field, 'FIELD_MISSING']]);
      },
    );

    it.each([
      ['MerchantReference', null],
      ['Currency', null],
      ['Items', null],
    ])('%s null counts as missing', async (field, value) => {
      await rejects(sessionBody({ [field]: value }), [[field, 'FIELD_MISSING']]);
    });

    it.each([
      ['Items[0].Name', { Items: [{ Amount: 1, Quantity: 1 }] }],
      ['Items[0].Amount', { Items: [{ Name: 'A', Quantity: 1 }] }],
      ['Items[0].Quantity', { Items: [{ Name: 'A', Amount: 1 }] }],
      ['BillingProfile.Name', { BillingProfile: billingProfile({ Name: undefined }) }],
      ['BillingProfile.Email', { BillingProfile: billingProfile({ Email: undefined }) }],
      ['BillingProfile.Address', { BillingProfile: billingProfile({ Address: undefined }) }],
      ['BillingProfile.Address.Street', { BillingProfile: billingProfile({}, { Street: undefined }) }],
      ['BillingProfile.Address.City', { BillingProfile: billingProfile({}, { City: undefined }) }],
      ['BillingProfile.Address.Country', { BillingProfile: billingProfile({}, { Country: undefined }) }],
      ['ShippingDetails.ShippingAmount', { ShippingDetails: shippingDetails({ ShippingAmount: undefined }) }],
      ['ShippingDetails.DutyAmount', { ShippingDetails: shippingDetails({ DutyAmount: undefined }) }],
      ['ShippingDetails.Name', { ShippingDetails: shippingDetails({ Name: undefined }) }],
      ['ShippingDetails.Email', { ShippingDetails: shippingDetails({ Email: undefined }) }],
      ['ShippingDetails.Phone', { ShippingDetails: shippingDetails({ Phone: undefined }) }],
      ['ShippingDetails.Address', { ShippingDetails: shippingDetails({ Address: undefined }) }],
    ])('a nested required field: %s', async (field, changes) => {
      await rejects(sessionBody(changes), [[field, 'FIELD_MISSING']]);
    });

    it.each([
      ['BillingProfile as a string', 'BillingProfile', { BillingProfile: 'Jo Doe' }],
      ['BillingProfile as an array', 'BillingProfile', { BillingProfile: [billingProfile()] }],
      ['BillingProfile.Address as a string', 'BillingProfile.Address', { BillingProfile: billingProfile({ Address: '1 Main St, Toronto' }) }],
      ['BillingProfile.Address as an array', 'BillingProfile.Address', { BillingProfile: billingProfile({ Address: [] }) }],
      ['ShippingDetails as a number', 'ShippingDetails', { ShippingDetails: 5 }],
      ['ShippingDetails.Address as an array', 'ShippingDetails.Address', { ShippingDetails: shippingDetails({ Address: [shippingDetails().Address] }) }],
      ['Items as an object', 'Items', { Items: { Name: 'A', Amount: 10, Quantity: 1 } }],
      ['Discounts as an object', 'Discounts', { Discounts: { Name: 'D', Amount: 1 } }],
    ])('%s is FIELD_INVALID on %s', async (_label, field, changes) => {
      await rejects(sessionBody(changes), [[field, 'FIELD_INVALID']]);
    });

    it.each([
      ['a string', 'Items', { Items: [{ Name: 'A', Amount: 1, Quantity: 1 }, 'T-shirt'] }],
      ['an array', 'Items', { Items: [{ Name: 'A', Amount: 1, Quantity: 1 }, [{ Name: 'B', Amount: 1, Quantity: 1 }]] }],
      ['null', 'Items', { Items: [{ Name: 'A', Amount: 1, Quantity: 1 }, null] }],
      ['an empty array', 'Items', { Items: [[]] }],
      ['a number', 'Discounts', { Discounts: [{ Name: 'D', Amount: 1 }, 5] }],
      ['an array', 'Discounts', { Discounts: [[{ Name: 'D', Amount: 1 }]] }],
    ])('an element of a list that is %s is refused on %s', async (_label, field, changes) => {
      const res = await refused(() => post(sessionBody(changes)), 400);
      expect(res.body).toEqual({ ...INVALID_REQUEST, FieldErrors: expect.any(Array) });
      expect(res.body.FieldErrors.length).toBeGreaterThan(0);
      for (const error of res.body.FieldErrors) expect(error.Field).toMatch(new RegExp(`^${field}(\\[\\d+\\])?$`));
    });

    it('an empty object names every required field', async () => {
      await rejects({}, [
        ['MerchantReference', 'FIELD_MISSING'],
        ['AutoCapture', 'FIELD_MISSING'],
        ['CompleteUrl', 'FIELD_MISSING'],
        ['CancelUrl', 'FIELD_MISSING'],
        ['Currency', 'FIELD_MISSING'],
        ['Items', 'FIELD_MISSING'],
      ]);
    });

    it('reports several problems at once', async () => {
      await rejects(
        sessionBody({ MerchantReference: undefined, Currency: 'usd', Items: [{ Name: 'A', Amount: -1, Quantity: 0 }], Foo: 1 }),
        [
          ['MerchantReference', 'FIELD_MISSING'],
          ['Currency', 'FIELD_INVALID'],
          ['Items[0].Amount', 'FIELD_INVALID'],
          ['Items[0].Quantity', 'FIELD_INVALID'],
          ['Foo', 'FIELD_UNKNOWN'],
        ],
      );
    });

    it('null for an optional field is treated as absent (never a 500)', async () => {
      const res = await post(
        sessionBody({ TaxAmount: null, Discounts: null, ShippingDetails: null, ViaAgent: null, AllowContract: null, BillingProfileReference: null, BillingProfileId: null }),
      );
      expect(res.status).toBe(201);
      expect(res.body.ViaAgent).toBe(false);
      for (const key of ['TaxAmount', 'Discounts', 'ShippingDetails', 'AllowContract', 'BillingProfileReference']) {
        expect(res.body).not.toHaveProperty(key);
      }
      const withNullAddressFields = await post(
        sessionBody({ BillingProfile: billingProfile({ Phone: null, NationalIdentifier: null, BirthDate: null }, { Region: 'ON', Postcode: 'M5V 2T6' }) }),
      );
      expect(withNullAddressFields.status).toBe(201);
    });

    it.each([
      ['Region', 'BillingProfile.Address.Region', { BillingProfile: billingProfile({}, { Region: null }) }],
      ['Postcode', 'BillingProfile.Address.Postcode', { BillingProfile: billingProfile({}, { Postcode: null }) }],
      ['Region', 'ShippingDetails.Address.Region', { ShippingDetails: shippingDetails({}, { Region: null }) }],
    ])('a null %s where the country requires it is FIELD_MISSING on %s', async (_label, field, changes) => {
      await rejects(sessionBody(changes), [[field, 'FIELD_MISSING']]);
    });

    it('BillingProfile null alone is the "no billing field" error, not a 500', async () => {
      await rejects(sessionBody({ BillingProfile: null }), [
        ['BillingProfile', 'FIELD_MISSING'],
        ['BillingProfileReference', 'FIELD_MISSING'],
        ['BillingProfileId', 'FIELD_MISSING'],
      ]);
    });

    it.each([
      ['Foo', { Foo: 'bar' }],
      ['Items[0].Colour', { Items: [{ Name: 'A', Amount: 1, Quantity: 1, Colour: 'red' }] }],
      ['Items[1].Sku', { Items: [{ Name: 'A', Amount: 1, Quantity: 1 }, { Name: 'B', Amount: 1, Quantity: 1, Sku: 'B-1' }] }],
      ['BillingProfile.Nickname', { BillingProfile: billingProfile({ Nickname: 'JD' }) }],
      ['BillingProfile.Address.Planet', { BillingProfile: billingProfile({}, { Planet: 'Earth' }) }],
      ['ShippingDetails.Carrier', { ShippingDetails: shippingDetails({ Carrier: 'UPS' }) }],
      ['ShippingDetails.Address.Planet', { ShippingDetails: shippingDetails({}, { Planet: 'Mars' }) }],
      ['Discounts[0].Code', { Discounts: [{ Name: 'D', Amount: 1, Code: 'WELCOME' }] }],
      ['TotalAmount', { TotalAmount: 19.99 }],
      ['SessionId', { SessionId: '7f1c2f7e-0b7a-4f0e-9a55-0e5c8c1d2e3f' }],
      ['State', { State: 'COMPLETED' }],
    ])('an unknown field %s is 400 FIELD_UNKNOWN naming it', async (field, changes) => {
      await rejects(sessionBody(changes), [[field, 'FIELD_UNKNOWN']]);
    });

    it('field names are case-sensitive', async () => {
      await rejects(without('Currency'), [['Currency', 'FIELD_MISSING']]);
      await rejects({ ...without('Currency'), currency: 'USD' }, [
        ['currency', 'FIELD_UNKNOWN'],
        ['Currency', 'FIELD_MISSING'],
      ]);
    });

    it('several unknown fields at different depths are all named', async () => {
      await rejects(
        sessionBody({ Foo: 1, Items: [{ Name: 'A', Amount: 1, Quantity: 1, Colour: 'red' }], BillingProfile: billingProfile({}, { Planet: 'Earth' }) }),
        [
          ['Foo', 'FIELD_UNKNOWN'],
          ['Items[0].Colour', 'FIELD_UNKNOWN'],
          ['BillingProfile.Address.Planet', 'FIELD_UNKNOWN'],
        ],
      );
    });
  });

  describe('billing: exactly one of BillingProfile, BillingProfileReference, BillingProfileId', () => {
    let stored: Response;

    beforeAll(async () => {
      const profile = billingProfile({ BillingProfileReference: 'bp-reused', Phone: '+1 416 555 0100' }, { Street: '2 Queen St' });
      stored = await created(sessionBody({ BillingProfile: profile }));
    });

    it('none of them: FIELD_MISSING on all three', async () => {
      await rejects(without('BillingProfile'), [
        ['BillingProfile', 'FIELD_MISSING'],
        ['BillingProfileReference', 'FIELD_MISSING'],
        ['BillingProfileId', 'FIELD_MISSING'],
      ]);
    });

    it.each([
      ['BillingProfile and BillingProfileReference', { BillingProfileReference: 'bp-reused' }, ['BillingProfile', 'BillingProfileReference']],
      ['BillingProfile and BillingProfileId', { BillingProfileId: 'ID' }, ['BillingProfile', 'BillingProfileId']],
      ['all three', { BillingProfileReference: 'bp-reused', BillingProfileId: 'ID' }, ['BillingProfile', 'BillingProfileReference', 'BillingProfileId']],
    ])('%s at once: FIELD_CONFLICT on each', async (_label, changes, fields) => {
      const body = sessionBody({ ...changes });
      if (body.BillingProfileId === 'ID') body.BillingProfileId = stored.body.BillingProfileId;
      await rejects(body, fields.map((field) => [field, 'FIELD_CONFLICT'] as [string, FieldCode]));
    });

    it('BillingProfileReference and BillingProfileId together conflict too', async () => {
      const body = { ...without('BillingProfile'), BillingProfileReference: 'bp-reused', BillingProfileId: stored.body.BillingProfileId };
      await rejects(body, [
        ['BillingProfileReference', 'FIELD_CONFLICT'],
        ['BillingProfileId', 'FIELD_CONFLICT'],
      ]);
    });

    it('BillingProfileReference reuses the stored profile: full profile returned, reference echoed, no new profile', async () => {
      const before = await rowCounts(t.dataSource);
      const res = await created({ ...without('BillingProfile'), BillingProfileReference: 'bp-reused' });
      expect(res.body.BillingProfile).toEqual(stored.body.BillingProfile);
      expect(res.body.BillingProfile).toMatchObject({
        BillingProfileReference: 'bp-reused',
        Phone: '+1 416 555 0100',
        Address: { Street: '2 Queen St', City: 'Toronto', Region: 'ON', Country: 'CA', Postcode: 'M5V 2T6' },
      });
      expect(res.body.BillingProfileId).toBe(stored.body.BillingProfileId);
      expect(res.body.BillingProfileReference).toBe('bp-reused');
      expect(await rowCounts(t.dataSource)).toEqual({ ...before, payment_session: before.payment_session + 1 });
      expect((await get(res.body.SessionId)).body).toEqual(res.body);
    });

    it('BillingProfileId reuses the stored profile (in any letter case); no root reference is returned', async () => {
      for (const id of [stored.body.BillingProfileId, stored.body.BillingProfileId.toUpperCase()]) {
        const before = await rowCounts(t.dataSource);
        const res = await created({ ...without('BillingProfile'), BillingProfileId: id });
        expect(res.body.BillingProfile).toEqual(stored.body.BillingProfile);
        expect(res.body.BillingProfileId).toBe(stored.body.BillingProfileId);
        expect(res.body).not.toHaveProperty('BillingProfileReference');
        expect(await rowCounts(t.dataSource)).toEqual({ ...before, payment_session: before.payment_session + 1 });
        expect((await get(res.body.SessionId)).body).toEqual(res.body);
      }
    });

    it('an update may switch to a stored profile by reference', async () => {
      const { body } = await created(sessionBody());
      const res = await put(body.SessionId, { ...without('BillingProfile'), MerchantReference: body.MerchantReference, BillingProfileReference: 'bp-reused' });
      expect(res.status).toBe(200);
      expect(res.body.BillingProfile).toEqual(stored.body.BillingProfile);
      expect(res.body.BillingProfileReference).toBe('bp-reused');
    });

    it('an unknown BillingProfileReference is 400 naming it', async () => {
      await rejects({ ...without('BillingProfile'), BillingProfileReference: 'no-such-profile' }, [['BillingProfileReference', 'FIELD_INVALID']]);
    });

    it('an unknown BillingProfileId is 400 naming it', async () => {
      await rejects({ ...without('BillingProfile'), BillingProfileId: '7f1c2f7e-0b7a-4f0e-9a55-0e5c8c1d2e3f' }, [['BillingProfileId', 'FIELD_INVALID']]);
    });

    it.each(['not-a-uuid', 12345, ''])('a BillingProfileId %p that is not a UUID is 400 naming it', async (id) => {
      await rejects({ ...without('BillingProfile'), BillingProfileId: id }, [['BillingProfileId', 'FIELD_INVALID']]);
    });

    it('a BillingProfileReference that is not a non-empty string is 400 naming it', async () => {
      await rejects({ ...without('BillingProfile'), BillingProfileReference: 42 }, [['BillingProfileReference', 'FIELD_INVALID']]);
      await rejects({ ...without('BillingProfile'), BillingProfileReference: '' }, [['BillingProfileReference', 'FIELD_INVALID']]);
    });

    it('a new BillingProfile whose reference already exists is 409 DUPLICATE_BILLING_PROFILE_REFERENCE, and nothing is written', async () => {
      const res = await refused(() => post(sessionBody({ BillingProfile: billingProfile({ BillingProfileReference: 'bp-reused', Name: 'Someone Else' }) })), 409);
      expect(res.body).toEqual({ Code: 'DUPLICATE_BILLING_PROFILE_REFERENCE', Message: expect.stringMatching(/\S/), RequestId: expect.any(String) });
      // The stored profile is unchanged.
      const reused = await created({ ...without('BillingProfile'), BillingProfileReference: 'bp-reused' });
      expect(reused.body.BillingProfile).toEqual(stored.body.BillingProfile);
    });

    it('a billing profile without a reference is created anew each time', async () => {
      const before = await rowCounts(t.dataSource);
      await created(sessionBody());
      await created(sessionBody());
      expect(await rowCounts(t.dataSource)).toEqual({ payment_session: before.payment_session + 2, billing_profile: before.billing_profile + 2 });
    });

    it('a duplicate MerchantReference rolls back the new billing profile too', async () => {
      const { body } = await created(sessionBody());
      const res = await refused(
        () => post(sessionBody({ MerchantReference: body.MerchantReference, BillingProfile: billingProfile({ BillingProfileReference: 'bp-never-stored' }) })),
        409,
      );
      expect(res.body).toEqual({ Code: 'DUPLICATE_MERCHANT_REFERENCE_ID', Message: 'Session with merchant reference already exists', RequestId: expect.any(String) });
      await rejects({ ...without('BillingProfile'), BillingProfileReference: 'bp-never-stored' }, [['BillingProfileReference', 'FIELD_INVALID']]);
    });
  });

  describe('CompleteUrl and CancelUrl', () => {
    it.each([
      ['a relative URL', '/checkout/done'],
      ['a scheme-relative URL', '//shop.example.com/done'],
      ['no scheme', 'shop.example.com/done'],
      ['ftp://', 'ftp://shop.example.com/done'],
      ['javascript:', 'javascript:alert(1)'],
      ['mailto:', 'mailto:shop@example.com'],
      ['no host', 'https://'],
      ['an empty string', ''],
      ['a number', 42],
    ])('%s is rejected in both', async (_label, url) => {
      await rejects(sessionBody({ CompleteUrl: url }), [['CompleteUrl', 'FIELD_INVALID']]);
      await rejects(sessionBody({ CancelUrl: url }), [['CancelUrl', 'FIELD_INVALID']]);
    });

    it('the {SessionId} placeholder is accepted and returned as sent', async () => {
      const completeUrl = 'https://shop.example.com/sessions/{SessionId}/done?again={SessionId}';
      const cancelUrl = 'http://localhost:8080/cart?session={SessionId}';
      const res = await created(sessionBody({ CompleteUrl: completeUrl, CancelUrl: cancelUrl }));
      expect(res.body.CompleteUrl).toBe(completeUrl);
      expect(res.body.CancelUrl).toBe(cancelUrl);
      expect((await get(res.body.SessionId)).body.CompleteUrl).toBe(completeUrl);
    });
  });

  describe('HTTP level: media type, JSON syntax, size, path ids', () => {
    let sessionId: string;
    let original: Body;

    beforeAll(async () => {
      const res = await created(sessionBody());
      sessionId = res.body.SessionId;
      original = res.body;
    });

    const auth = () => [merchant.username, merchant.password] as const;

    it.each([
      ['text/plain', (r: ReturnType<TestApp['http']>) => r.post('/v2.22/session').auth(...auth()).set('Content-Type', 'text/plain').send(JSON.stringify(sessionBody()))],
      ['a form body', (r: ReturnType<TestApp['http']>) => r.post('/v2.22/session').auth(...auth()).type('form').send({ MerchantReference: 'x', Currency: 'USD' })],
      ['no content type', (r: ReturnType<TestApp['http']>) => r.post('/v2.22/session').auth(...auth())],
      ['application/xml', (r: ReturnType<TestApp['http']>) => r.post('/v2.22/session').auth(...auth()).set('Content-Type', 'application/xml').send('<Session/>')],
      ['text/plain on update', (r: ReturnType<TestApp['http']>) => r.put(`/v2.22/session/${sessionId}`).auth(...auth()).set('Content-Type', 'text/plain').send(JSON.stringify(sessionBody()))],
    ])('%s is 415 UNSUPPORTED_MEDIA_TYPE', async (_label, send) => {
      const res = await refused(() => send(t.http()), 415);
      expect(res.body).toEqual(UNSUPPORTED_MEDIA_TYPE);
    });

    it('a JSON body with no Content-Type header is 415', async () => {
      const res = await refused(
        () =>
          new Promise<Response>((resolve, reject) =>
            t.http().post('/v2.22/session').auth(...auth()).send(Buffer.from(JSON.stringify(sessionBody()))).end((error, response) => (error ? reject(error) : resolve(response))),
          ),
        415,
      );
      expect(res.body).toEqual(UNSUPPORTED_MEDIA_TYPE);
    });

    it('application/json with a charset parameter is accepted', async () => {
      const res = await t.http().post('/v2.22/session').auth(...auth()).set('Content-Type', 'application/json; charset=utf-8').send(JSON.stringify(sessionBody()));
      expect(res.status).toBe(201);
    });

    it.each([
      ['a truncated object', '{"MerchantReference": "x", '],
      ['a trailing comma', '{"MerchantReference": "x",}'],
      ['single quotes', "{'MerchantReference': 'x'}"],
      ['not JSON at all', 'hello'],
    ])('malformed JSON (%s) is 400 INVALID_REQUEST', async (_label, text) => {
      const res = await refused(() => t.http().post('/v2.22/session').auth(...auth()).set('Content-Type', 'application/json').send(text), 400);
      expect(res.body).toMatchObject(INVALID_REQUEST);
      expect(Object.keys(res.body).sort()).toEqual(['Code', 'FieldErrors', 'Message', 'RequestId']);
    });

    it.each([
      ['an array', '[]'],
      ['an array of sessions', JSON.stringify([sessionBody()])],
      ['a string', '"a session"'],
      ['a number', '42'],
      ['null', 'null'],
    ])('a JSON body that is %s is 400 INVALID_REQUEST', async (_label, text) => {
      const res = await refused(() => t.http().post('/v2.22/session').auth(...auth()).set('Content-Type', 'application/json').send(text), 400);
      expect(res.body).toMatchObject(INVALID_REQUEST);
    });

    it('a malformed JSON update is 400 and leaves the session as it was', async () => {
      const res = await refused(() => t.http().put(`/v2.22/session/${sessionId}`).auth(...auth()).set('Content-Type', 'application/json').send('{"Items": ['), 400);
      expect(res.body).toMatchObject(INVALID_REQUEST);
      expect((await get(sessionId)).body).toEqual(original);
    });

    it('a body over 100kb is 413 PAYLOAD_TOO_LARGE, on create and on update', async () => {
      const big = JSON.stringify(sessionBody({ Items: Array.from({ length: 1000 }, (_, i) => ({ Name: `Item ${i} ${'x'.repeat(100)}`, Amount: 1, Quantity: 1 })) }));
      expect(big.length).toBeGreaterThan(100 * 1024);
      const expected = { Code: 'PAYLOAD_TOO_LARGE', Message: expect.stringMatching(/\S/), RequestId: expect.any(String) };
      const onCreate = await refused(() => t.http().post('/v2.22/session').auth(...auth()).set('Content-Type', 'application/json').send(big), 413);
      expect(onCreate.body).toEqual(expected);
      const onUpdate = await refused(() => t.http().put(`/v2.22/session/${sessionId}`).auth(...auth()).set('Content-Type', 'application/json').send(big), 413);
      expect(onUpdate.body).toEqual(expected);
      expect((await get(sessionId)).body).toEqual(original);
    });

    it('a body just under the limit is not refused for its size', async () => {
      const body = sessionBody({ Items: Array.from({ length: 100 }, (_, i) => ({ Name: `Item ${i} ${'x'.repeat(200)}`, Amount: 1, Quantity: 1 })) });
      expect(JSON.stringify(body).length).toBeLessThan(100 * 1024);
      const res = await created(body);
      expect(res.body.TotalAmount).toBe(100);
    });

    it.each(['not-a-uuid', '12345', '7f1c2f7e0b7a4f0e9a550e5c8c1d2e3f', '7f1c2f7e-0b7a-4f0e-9a55-0e5c8c1d2e3fa', 'zf1c2f7e-0b7a-4f0e-9a55-0e5c8c1d2e3f'])(
      'a path id %p is 400 VALIDATION_ERROR for GET, PUT and DELETE',
      async (id) => {
        const read = await get(id);
        expect({ status: read.status, body: read.body }).toEqual({ status: 400, body: NOT_A_UUID });
        const update = await refused(() => put(id, sessionBody()), 400);
        expect(update.body).toEqual(NOT_A_UUID);
        const cancel = await refused(() => t.http().delete(`/v2.22/session/${id}`).auth(...auth()), 400);
        expect(cancel.body).toEqual(NOT_A_UUID);
      },
    );
  });

  describe('update (PUT) validates like create and changes nothing when refused', () => {
    let sessionId: string;
    let original: Body;

    beforeAll(async () => {
      const res = await created(sessionBody({ Currency: 'USD', Items: [{ Name: 'A', Amount: 19.99, Quantity: 1 }] }));
      sessionId = res.body.SessionId;
      original = res.body;
    });

    const refusedUpdate = async (body: Body, status = 400) => {
      const res = await refused(() => put(sessionId, { ...body, MerchantReference: body.MerchantReference === undefined ? undefined : original.MerchantReference }), status);
      expect((await get(sessionId)).body).toEqual(original);
      return res;
    };

    it.each(['MerchantReference', 'AutoCapture', 'CompleteUrl', 'CancelUrl', 'Currency', 'Items', 'BillingProfile'])(
      'an update without %s is refused (PUT replaces the whole session)',
      async (field) => {
        const res = await refusedUpdate(without(field));
        expect(res.body).toMatchObject(INVALID_REQUEST);
        expect(res.body.FieldErrors).toContainEqual(expect.objectContaining({ Field: field, Code: 'FIELD_MISSING' }));
      },
    );

    it('switching Currency to JPY with cents in the amounts is refused on Items[0].Amount', async () => {
      const res = await refusedUpdate(sessionBody({ Currency: 'JPY', Items: [{ Name: 'A', Amount: 19.99, Quantity: 1 }] }));
      expectFieldErrors(res, [['Items[0].Amount', 'FIELD_INVALID']]);
    });

    it('an unsupported currency is 400 INVALID_CURRENCY', async () => {
      const res = await refusedUpdate(sessionBody({ Currency: 'XAU' }));
      expect(res.body).toEqual(INVALID_CURRENCY);
    });

    it('a malformed currency, an unknown field, a negative total and a bad URL are refused', async () => {
      expectFieldErrors(await refusedUpdate(sessionBody({ Currency: 'us' })), [['Currency', 'FIELD_INVALID']]);
      expectFieldErrors(await refusedUpdate(sessionBody({ Items: [{ Name: 'A', Amount: 1, Quantity: 1, Colour: 'red' }] })), [
        ['Items[0].Colour', 'FIELD_UNKNOWN'],
      ]);
      expectFieldErrors(await refusedUpdate(sessionBody({ Discounts: [{ Name: 'D', Amount: 100 }] })), [['Discounts', 'FIELD_INVALID']]);
      expectFieldErrors(await refusedUpdate(sessionBody({ CompleteUrl: 'ftp://x.example.com' })), [['CompleteUrl', 'FIELD_INVALID']]);
    });

    it('two billing fields at once, or an unknown reference, are refused', async () => {
      expectFieldErrors(await refusedUpdate(sessionBody({ BillingProfileReference: 'bp-whatever' })), [
        ['BillingProfile', 'FIELD_CONFLICT'],
        ['BillingProfileReference', 'FIELD_CONFLICT'],
      ]);
      expectFieldErrors(await refusedUpdate({ ...without('BillingProfile'), BillingProfileReference: 'no-such-profile' }), [
        ['BillingProfileReference', 'FIELD_INVALID'],
      ]);
    });

    it('a new profile with an existing reference is 409 on update too, and the session is unchanged', async () => {
      await created(sessionBody({ BillingProfile: billingProfile({ BillingProfileReference: 'bp-taken-by-put' }) }));
      const res = await refusedUpdate(sessionBody({ BillingProfile: billingProfile({ BillingProfileReference: 'bp-taken-by-put' }) }), 409);
      expect(res.body.Code).toBe('DUPLICATE_BILLING_PROFILE_REFERENCE');
    });

    it('after all those refusals a valid update still goes through', async () => {
      const res = await put(sessionId, sessionBody({ MerchantReference: original.MerchantReference, Currency: 'JPY', Items: [{ Name: 'A', Amount: 1500, Quantity: 2 }] }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ SessionId: sessionId, State: 'CREATED', Currency: 'JPY', TotalAmount: 3000 });
      expect(res.body.BillingProfileId).not.toBe(original.BillingProfileId);
      expect((await get(sessionId)).body).toEqual(res.body);
    });
  });
});
