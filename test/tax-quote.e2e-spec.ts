import type { Response } from 'supertest';
import { Credentials, startTestApp, TestApp } from './setup/test-app';

// The published rates the service must apply: the sales-tax package's table (country VAT/GST, US states,
// Canadian provinces) and the dated reduced-rate table of src/tax/rates/reduced-rates.ts.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const PACKAGE_RATES = require('sales-tax/res/sales_tax_rates.json');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const INVALID_REQUEST = { Code: 'INVALID_REQUEST', Message: 'Invalid request syntax', RequestId: expect.any(String) };
const INVALID_CURRENCY = { Code: 'INVALID_CURRENCY', Message: 'Provided currency is not supported', RequestId: expect.any(String) };
const NOT_A_UUID = { Code: 'VALIDATION_ERROR', Message: 'Not a valid UUID', RequestId: expect.any(String) };
const UNSUPPORTED_MEDIA_TYPE = { Code: 'UNSUPPORTED_MEDIA_TYPE', Message: 'Expected content-type: application/json', RequestId: expect.any(String) };

type Body = Record<string, unknown>;
type Item = { Sku: string; Amount: number; TaxIncluded?: boolean; Quantity?: number; TaxCode?: string; Description?: string };
type FieldCode = 'FIELD_MISSING' | 'FIELD_INVALID' | 'FIELD_UNKNOWN' | 'FIELD_CONFLICT';

const item = (Amount: number, extra: Partial<Item> = {}): Item => ({ Sku: `SKU-${Amount}`, Amount, ...extra });

function quoteBody(overrides: Body = {}): Body {
  return {
    Currency: 'EUR',
    Reference: 'cart-77',
    Items: [item(100)],
    ShippingAddress: { Street: '1 Main Street', City: 'Berlin', Country: 'DE', Postcode: '10115' },
    ...overrides,
  };
}

const to = (Country: string, Region?: string) => ({ Country, ...(Region !== undefined && { Region }) });

/** Major units → minor units for a currency of `digits` decimals, exactly enough for the test amounts. */
const minor = (value: number, digits = 2) => Math.round(value * 10 ** digits);

describe('Tax quote: POST /v1/tax/quote and GET /v1/tax/quote/{Id}', () => {
  let t: TestApp;
  let merchant: Credentials;
  let other: Credentials;

  beforeAll(async () => {
    t = await startTestApp();
    merchant = await t.merchantUser();
    other = await t.merchantUser();
  });
  afterAll(() => t.close());

  const post = (body: unknown, who: Credentials = merchant) =>
    t.http().post('/v1/tax/quote').auth(who.username, who.password).send(body as object);
  const get = (id: string, who: Credentials = merchant) => t.http().get(`/v1/tax/quote/${id}`).auth(who.username, who.password);

  async function quoteRows(): Promise<number> {
    const rows: { n: number | string | bigint }[] = await t.dataSource.query('SELECT COUNT(*) AS n FROM tax_quote');
    return Number(rows[0].n);
  }

  /** A 201 quote whose totals are the sums of its items, as the spec requires. */
  async function quoted(body: Body, digits = 2): Promise<Response> {
    const res = await post(body);
    expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: expect.anything() });
    const items = res.body.Items as { Amount: number; TaxAmount: number; Tax: { TaxAmount: number }[] }[];
    expect(minor(res.body.Amount, digits)).toBe(items.reduce((s, i) => s + minor(i.Amount, digits), 0));
    expect(minor(res.body.TaxAmount, digits)).toBe(items.reduce((s, i) => s + minor(i.TaxAmount, digits), 0));
    for (const i of items) expect(minor(i.TaxAmount, digits)).toBe(i.Tax.reduce((s, l) => s + minor(l.TaxAmount, digits), 0));
    return res;
  }

  /** Tax lines of the first item as [Type, TaxAmount]. */
  const lines = (res: Response, index = 0) =>
    (res.body.Items[index].Tax as { Type: string; TaxAmount: number }[]).map((l) => [l.Type, l.TaxAmount]);

  /** A request that must be refused with `status`, writing no tax_quote row. */
  async function refused(send: () => PromiseLike<Response>, status: number): Promise<Response> {
    const before = await quoteRows();
    const res = await send();
    expect({ status: res.status, body: res.body }).toEqual({ status, body: expect.anything() });
    expect(await quoteRows()).toBe(before);
    return res;
  }

  async function rejects(body: unknown, expected: [string, FieldCode][]): Promise<Response> {
    const res = await refused(() => post(body), 400);
    expect(res.body).toEqual({ ...INVALID_REQUEST, FieldErrors: expect.any(Array) });
    for (const error of res.body.FieldErrors) {
      expect(error).toEqual({ Field: expect.any(String), Code: expect.any(String), Message: expect.stringMatching(/\S/) });
    }
    const actual = (res.body.FieldErrors as { Field: string; Code: string }[]).map((e) => [e.Field, e.Code]);
    expect(actual.sort()).toEqual([...expected].sort());
    return res;
  }

  describe('the answer', () => {
    it('201 with every request field, an Id per quote and item, TaxCode, Tax lines and totals; stored', async () => {
      const before = await quoteRows();
      const body = quoteBody({
        Currency: 'USD',
        Reference: 'cart-full',
        Items: [
          { Sku: 'A-1', Description: 'Mug', TaxIncluded: false, Quantity: 2, Amount: 20, TaxCode: 'P0000000' },
          { Sku: 'B-2', Amount: 23.99, TaxIncluded: true },
        ],
        ShippingAddress: { Street: '1 Market St', City: 'San Francisco', Region: 'CA', Country: 'US', Postcode: '94105' },
        WarehouseAddress: { Street: '2 Dock Rd', City: 'Portland', Region: 'OR', Country: 'US', Postcode: '97201' },
        BusinessIdentificationNumber: '12-3456789',
      });
      const res = await quoted(body);
      const rate: number = PACKAGE_RATES.US.states.CA.rate;
      const tax1 = Math.round(2000 * rate) / 100;
      const tax2 = Math.round(2399 - 2399 / (1 + rate)) / 100;
      expect(res.body).toEqual({
        Id: expect.stringMatching(UUID),
        Currency: 'USD',
        Reference: 'cart-full',
        Items: [
          {
            Id: expect.stringMatching(UUID),
            Sku: 'A-1',
            Description: 'Mug',
            TaxIncluded: false,
            Quantity: 2,
            Amount: 20,
            TaxCode: 'P0000000',
            TaxAmount: tax1,
            Tax: [{ Name: 'US-CA STATE SALES TAX', Type: 'sales', TaxAmount: tax1 }],
          },
          {
            Id: expect.stringMatching(UUID),
            Sku: 'B-2',
            TaxIncluded: true,
            Quantity: 1,
            Amount: Math.round(2399 - tax2 * 100) / 100,
            TaxCode: 'P0000000',
            TaxAmount: tax2,
            Tax: [{ Name: 'US-CA STATE SALES TAX', Type: 'sales', TaxAmount: tax2 }],
          },
        ],
        ShippingAddress: body.ShippingAddress,
        WarehouseAddress: body.WarehouseAddress,
        BusinessIdentificationNumber: '12-3456789',
        Amount: expect.any(Number),
        TaxAmount: expect.any(Number),
        CreatedAt: expect.any(String),
      });
      expect(new Date(res.body.CreatedAt).toISOString()).toBe(res.body.CreatedAt);
      expect(res.body.Items[0].Id).not.toBe(res.body.Items[1].Id);
      expect(await quoteRows()).toBe(before + 1);
    });

    it('the quote is stored: GET returns the same body', async () => {
      const res = await quoted(quoteBody({ Items: [item(10), item(23.99, { TaxIncluded: true, TaxCode: 'PB100000' })] }));
      const read = await get(res.body.Id);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(res.body);
    });
  });

  describe('regions, with the published rates', () => {
    const rate = (country: string, state?: string): number =>
      state ? PACKAGE_RATES[country].states[state].rate : PACKAGE_RATES[country].rate;

    it.each([
      // currency, destination, tax code, [type, rate] of each component expected
      ['EUR', to('DE'), 'P0000000', [['vat', rate('DE')]]],
      ['EUR', to('DE'), 'PB100000', [['vat', 0.07]]],
      ['EUR', to('DE'), 'PF050000', [['vat', 0.07]]],
      ['EUR', to('FR'), 'P0000000', [['vat', rate('FR')]]],
      ['EUR', to('FR'), 'PB100000', [['vat', 0.055]]],
      ['EUR', to('FR'), 'PF050000', [['vat', 0.055]]],
      ['EUR', to('IT'), 'P0000000', [['vat', rate('IT')]]],
      ['EUR', to('IT'), 'PB100000', [['vat', 0.04]]],
      ['EUR', to('NL'), 'PF050000', [['vat', 0.09]]],
      ['EUR', to('IE'), 'PB100000', [['vat', 0]]],
      ['EUR', to('FI'), 'P0000000', [['vat', rate('FI')]]],
      ['SEK', to('SE'), 'P0000000', [['vat', rate('SE')]]],
      ['GBP', to('GB'), 'P0000000', [['vat', rate('GB')]]],
      ['GBP', to('GB'), 'PB100000', [['vat', 0]]],
      ['GBP', to('GB'), 'PF050000', [['vat', 0]]],
      ['CAD', to('CA', 'ON'), 'P0000000', [['gst', 0.05], ['hst', rate('CA', 'ON')]]],
      ['CAD', to('CA', 'CA-ON'), 'P0000000', [['gst', 0.05], ['hst', rate('CA', 'ON')]]],
      ['CAD', to('CA', 'NB'), 'P0000000', [['gst', 0.05], ['hst', rate('CA', 'NB')]]],
      ['CAD', to('CA', 'NS'), 'P0000000', [['gst', 0.05], ['hst', rate('CA', 'NS')]]],
      ['CAD', to('CA', 'BC'), 'P0000000', [['gst', 0.05], ['pst', rate('CA', 'BC')]]],
      ['CAD', to('CA', 'SK'), 'P0000000', [['gst', 0.05], ['pst', rate('CA', 'SK')]]],
      ['CAD', to('CA', 'MB'), 'P0000000', [['gst', 0.05], ['pst', rate('CA', 'MB')]]],
      ['CAD', to('CA', 'QC'), 'P0000000', [['gst', 0.05], ['qst', rate('CA', 'QC')]]],
      ['CAD', to('CA', 'AB'), 'P0000000', [['gst', 0.05]]],
      ['CAD', to('CA', 'ON'), 'PF050000', []],
      ['AUD', to('AU'), 'P0000000', [['gst', rate('AU')]]],
      ['AUD', to('AU'), 'PF050000', []],
      ['USD', to('US', 'CA'), 'P0000000', [['sales', rate('US', 'CA')]]],
      ['USD', to('US', 'US-NY'), 'P0000000', [['sales', rate('US', 'NY')]]],
      ['USD', to('US', 'TX'), 'P0000000', [['sales', rate('US', 'TX')]]],
      ['USD', to('US', 'WA'), 'P0000000', [['sales', rate('US', 'WA')]]],
      ['USD', to('US', 'OR'), 'P0000000', []], // no sales tax
      ['USD', to('US', 'DE'), 'P0000000', []], // Delaware: none either
      ['HKD', to('HK'), 'P0000000', []],
      ['EUR', to('DE'), 'NT000000', []],
    ])('%s to %j, %s: exclusive and inclusive', async (currency, address, taxCode, expected) => {
      const components = expected as [string, number][];
      const res = await quoted(
        quoteBody({
          Currency: currency,
          ShippingAddress: { City: 'Somewhere', ...address },
          Items: [item(100, { TaxCode: taxCode }), item(100, { TaxCode: taxCode, TaxIncluded: true })],
        }),
      );
      expect(res.body.Items.map((i: { TaxCode: string }) => i.TaxCode)).toEqual([taxCode, taxCode]);
      // Exclusive: each component is rate × 10 000 minor units.
      expect(lines(res, 0)).toEqual(components.map(([type, r]) => [type, Math.round(10000 * r) / 100]));
      expect(res.body.Items[0].Amount).toBe(100);
      // Inclusive: the tax inside 100.00 is 100 − 100 / (1 + Σ rates), net + tax = 100.
      const total = components.reduce((s, [, r]) => s + r, 0);
      const insideMinor = Math.round(10000 - 10000 / (1 + total));
      expect(minor(res.body.Items[1].TaxAmount)).toBe(insideMinor);
      expect(minor(res.body.Items[1].Amount)).toBe(10000 - insideMinor);
      expect(lines(res, 1).map(([type]) => type)).toEqual(components.map(([type]) => type));
    });

    it('tax included in 23.99 is extracted at the US-CA package rate, net + tax = 23.99', async () => {
      // The spec's 8.6 % example (22.09 + 1.90) is unit-tested in tax-math.spec.ts; no region has that rate.
      const r: number = PACKAGE_RATES.US.states.CA.rate;
      const res = await quoted(quoteBody({ Currency: 'USD', ShippingAddress: to('US', 'CA'), Items: [item(23.99, { TaxIncluded: true })] }));
      const tax = Math.round(2399 - 2399 / (1 + r));
      expect(res.body.Items[0]).toEqual(expect.objectContaining({ Amount: (2399 - tax) / 100, TaxAmount: tax / 100 }));
      expect(res.body.Amount + res.body.TaxAmount).toBeCloseTo(23.99, 10);
    });

    it('Quebec: GST and QST rounded per component, 100.00 → 5.00 + 9.98 (9.975 half-up)', async () => {
      const res = await quoted(quoteBody({ Currency: 'CAD', ShippingAddress: to('CA', 'QC'), Items: [item(100)] }));
      expect(res.body.Items[0].Tax).toEqual([
        { Name: 'CA GST', Type: 'gst', TaxAmount: 5 },
        { Name: 'CA-QC QST', Type: 'qst', TaxAmount: 9.98 },
      ]);
      expect(res.body.TaxAmount).toBe(14.98);
    });
  });

  describe('rounding and totals', () => {
    it('rounds per item: 100 items of 0.01 at 19 % carry no tax each, and the totals are the sums', async () => {
      const res = await quoted(quoteBody({ Items: Array.from({ length: 100 }, (_, i) => ({ Sku: `S${i}`, Amount: 0.01 })) }));
      expect(res.body.Items).toHaveLength(100);
      for (const i of res.body.Items) expect(i.TaxAmount).toBe(0);
      expect(res.body).toEqual(expect.objectContaining({ Amount: 1, TaxAmount: 0 }));
    });

    it('100 items of 0.03 at 19 % are 0.01 tax each (0.57 rounds up), 1.00 in all', async () => {
      const res = await quoted(quoteBody({ Items: Array.from({ length: 100 }, (_, i) => ({ Sku: `S${i}`, Amount: 0.03 })) }));
      for (const i of res.body.Items) expect(i.TaxAmount).toBe(0.01);
      expect(res.body).toEqual(expect.objectContaining({ Amount: 3, TaxAmount: 1 }));
    });

    it('a mixed quote, inclusive and exclusive: Amount = Σ net amounts, TaxAmount = Σ item TaxAmount', async () => {
      const res = await quoted(
        quoteBody({
          Currency: 'CAD',
          ShippingAddress: to('CA', 'QC'),
          Items: [
            item(0.07, { TaxIncluded: true }),
            item(19.99),
            item(19.99, { TaxIncluded: true }),
            item(1234.56, { TaxCode: 'PB100000' }), // QC has no reduced book rate: 61.73 GST + 123.15 QST
            item(5.55, { TaxCode: 'PF050000' }),
            item(0.01),
          ],
        }),
      );
      expect(res.body.Items.map((i: { TaxAmount: number }) => i.TaxAmount)).toEqual([0.01, 2.99, 2.6, 184.88, 0, 0]);
      expect(minor(res.body.Amount)).toBe(6 + 1999 + 1739 + 123456 + 555 + 1);
      expect(minor(res.body.TaxAmount)).toBe(1 + 299 + 260 + 18488);
    });
  });

  describe('currencies of 0 and 3 decimals', () => {
    it('JPY: whole yen, 1000 → 100 tax; 105 → 11 (10.5 half-up); included 1100 → 1000 + 100', async () => {
      const res = await quoted(
        quoteBody({ Currency: 'JPY', ShippingAddress: to('JP'), Items: [item(1000), item(105), item(1100, { TaxIncluded: true })] }),
        0,
      );
      expect(res.body.Items.map((i: { Amount: number; TaxAmount: number }) => [i.Amount, i.TaxAmount])).toEqual([
        [1000, 100],
        [105, 11],
        [1000, 100],
      ]);
      expect(res.body).toEqual(expect.objectContaining({ Amount: 2105, TaxAmount: 211 }));
    });

    it('KWD: fils, 1.005 → 0.05 (50.25 fils); 1.01 → 0.051 (50.5 half-up); included 1.05 → 1 + 0.05', async () => {
      const rate: number = PACKAGE_RATES.KW.rate;
      expect(rate).toBe(0.05);
      const res = await quoted(
        quoteBody({ Currency: 'KWD', ShippingAddress: to('KW'), Items: [item(1.005), item(1.01), item(1.05, { TaxIncluded: true })] }),
        3,
      );
      expect(res.body.Items.map((i: { Amount: number; TaxAmount: number }) => [i.Amount, i.TaxAmount])).toEqual([
        [1.005, 0.05],
        [1.01, 0.051],
        [1, 0.05],
      ]);
      expect(minor(res.body.Amount, 3)).toBe(3015);
      expect(minor(res.body.TaxAmount, 3)).toBe(151);
    });
  });

  describe('EU reverse charge', () => {
    const REVERSE = [['reverse-charge', 0]];

    it.each([
      ['DE', 'DE136695976', { Country: 'FR', City: 'Lyon' }],
      ['DE', 'DE136695976', undefined],
      ['DE', 'DE 136 695 976', { Country: 'AT' }],
      ['AT', 'ATU13585627', { Country: 'DE' }],
      ['AT', 'ATU13585627', undefined],
      ['FR', 'FR40303265045', { Country: 'IT' }],
      ['FR', 'FR40303265045', { Country: 'US', Region: 'CA' }],
    ])('an EU business in %s (%s) supplied from %j: no tax, one reverse-charge line per item', async (country, vat, warehouse) => {
      const res = await quoted(
        quoteBody({
          ShippingAddress: { City: 'Somewhere', Country: country },
          ...(warehouse && { WarehouseAddress: warehouse }),
          BusinessIdentificationNumber: vat,
          Items: [item(100), item(50, { TaxIncluded: true, TaxCode: 'PB100000' })],
        }),
      );
      expect(res.body.TaxAmount).toBe(0);
      expect(res.body.Amount).toBe(150);
      expect(res.body.BusinessIdentificationNumber).toBe(vat);
      for (const index of [0, 1]) {
        expect(res.body.Items[index].TaxAmount).toBe(0);
        expect(res.body.Items[index].Tax).toHaveLength(1);
        expect(res.body.Items[index].Tax[0]).toEqual({ Name: expect.stringMatching(/reverse charge/i), Type: 'reverse-charge', TaxAmount: 0 });
        expect(lines(res, index)).toEqual(REVERSE);
      }
      expect((await get(res.body.Id)).body).toEqual(res.body);
    });

    it.each([
      ['DE', 'DE136695976', 0.19],
      ['AT', 'ATU13585627', 0.2],
      ['FR', 'FR40303265045', 0.2],
    ])('the same business in %s (%s) supplied from a warehouse in its own country is domestic: normal VAT %s', async (country, vat, rate) => {
      const res = await quoted(
        quoteBody({ ShippingAddress: to(country), WarehouseAddress: to(country), BusinessIdentificationNumber: vat, Items: [item(100)] }),
      );
      expect(lines(res)).toEqual([['vat', rate * 100]]);
      expect(res.body.TaxAmount).toBe(rate * 100);
    });

    it('a consumer (no VAT number) in the EU pays VAT whatever the warehouse', async () => {
      const res = await quoted(quoteBody({ ShippingAddress: to('DE'), WarehouseAddress: to('FR'), Items: [item(100)] }));
      expect(lines(res)).toEqual([['vat', 19]]);
    });

    it.each(['DE123456789', 'DE136695977', 'XX123', 'not-a-vat'])(
      'an invalid EU VAT number %s is 400 with a FieldError on BusinessIdentificationNumber, nothing stored',
      async (vat) => {
        await rejects(quoteBody({ ShippingAddress: to('DE'), WarehouseAddress: to('FR'), BusinessIdentificationNumber: vat }), [
          ['BusinessIdentificationNumber', 'FIELD_INVALID'],
        ]);
      },
    );
  });

  describe('tenancy and roles', () => {
    it("another merchant's quote is 404 TAX_QUOTE_NOT_FOUND; an unknown Id too", async () => {
      const res = await quoted(quoteBody());
      for (const read of [await get(res.body.Id, other), await get('7f1c2f7e-0b7a-4f0e-9a55-0e5c8c1d2e3f')]) {
        expect(read.status).toBe(404);
        expect(read.body).toEqual({ Code: 'TAX_QUOTE_NOT_FOUND', Message: expect.stringMatching(/\S/), RequestId: expect.any(String) });
      }
      expect((await get(res.body.Id)).status).toBe(200);
    });

    it('a readonly user gets 403 NOT_AUTHORIZED on POST (nothing stored) and 200 on GET', async () => {
      const res = await quoted(quoteBody());
      const readonly = await t.user(merchant.merchantId, 'readonly');
      const forbidden = await refused(() => post(quoteBody(), readonly), 403);
      expect(forbidden.body).toEqual({ Code: 'NOT_AUTHORIZED', Message: 'User is not permitted to access this resource', RequestId: expect.any(String) });
      const read = await get(res.body.Id, readonly);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(res.body);
    });

    it('401 without credentials, nothing stored', async () => {
      const res = await refused(() => t.http().post('/v1/tax/quote').send(quoteBody()), 401);
      expect(res.body.Code).toBe('AUTHENTICATION_REQUIRED');
    });
  });

  describe('errors: 4xx and nothing stored', () => {
    it.each<[string, Body, [string, FieldCode][]]>([
      ['an unknown country', { ShippingAddress: to('XX') }, [['ShippingAddress.Country', 'FIELD_INVALID']]],
      ['an unknown warehouse country', { WarehouseAddress: to('XX') }, [['WarehouseAddress.Country', 'FIELD_INVALID']]],
      ['a lower-case country', { ShippingAddress: to('de') }, [['ShippingAddress.Country', 'FIELD_INVALID']]],
      ['a region that is not a subdivision (US + ON)', { Currency: 'USD', ShippingAddress: to('US', 'ON') }, [['ShippingAddress.Region', 'FIELD_INVALID']]],
      ['a region of another country (CA + US-CA)', { Currency: 'CAD', ShippingAddress: to('CA', 'US-CA') }, [['ShippingAddress.Region', 'FIELD_INVALID']]],
      ['a made-up region (DE + ZZ)', { ShippingAddress: to('DE', 'ZZ') }, [['ShippingAddress.Region', 'FIELD_INVALID']]],
      ['no Region for the US', { Currency: 'USD', ShippingAddress: to('US') }, [['ShippingAddress.Region', 'FIELD_MISSING']]],
      ['no Region for Canada', { Currency: 'CAD', ShippingAddress: to('CA') }, [['ShippingAddress.Region', 'FIELD_MISSING']]],
      ['a negative amount', { Items: [item(-1)] }, [['Items[0].Amount', 'FIELD_INVALID']]],
      ['a negative amount among good ones', { Items: [item(1), item(-0.01)] }, [['Items[1].Amount', 'FIELD_INVALID']]],
      ['too many decimals for EUR', { Items: [item(1.001)] }, [['Items[0].Amount', 'FIELD_INVALID']]],
      ['decimals for JPY', { Currency: 'JPY', ShippingAddress: to('JP'), Items: [item(10.5)] }, [['Items[0].Amount', 'FIELD_INVALID']]],
      ['four decimals for KWD', { Currency: 'KWD', ShippingAddress: to('KW'), Items: [item(1.0005)] }, [['Items[0].Amount', 'FIELD_INVALID']]],
      ['an amount as a string', { Items: [{ Sku: 'A', Amount: '10' }] }, [['Items[0].Amount', 'FIELD_INVALID']]],
      ['no Amount', { Items: [{ Sku: 'A' }] }, [['Items[0].Amount', 'FIELD_MISSING']]],
      ['no Sku', { Items: [{ Amount: 1 }] }, [['Items[0].Sku', 'FIELD_MISSING']]],
      ['a zero Quantity', { Items: [item(1, { Quantity: 0 })] }, [['Items[0].Quantity', 'FIELD_INVALID']]],
      ['an unknown TaxCode', { Items: [item(1, { TaxCode: 'P9999999' })] }, [['Items[0].TaxCode', 'FIELD_INVALID']]],
      ['no Items', { Items: undefined }, [['Items', 'FIELD_MISSING']]],
      ['empty Items', { Items: [] }, [['Items', 'FIELD_INVALID']]],
      ['Items not a list', { Items: { Sku: 'A', Amount: 1 } }, [['Items', 'FIELD_INVALID']]],
      ['no ShippingAddress', { ShippingAddress: undefined }, [['ShippingAddress', 'FIELD_MISSING']]],
      ['no Currency', { Currency: undefined }, [['Currency', 'FIELD_MISSING']]],
      ['a malformed Currency', { Currency: 'eur' }, [['Currency', 'FIELD_INVALID']]],
      ['a malformed Currency (4 letters)', { Currency: 'EURO' }, [['Currency', 'FIELD_INVALID']]],
      ['an unknown field', { Foo: 1 }, [['Foo', 'FIELD_UNKNOWN']]],
      ['an unknown item field', { Items: [{ ...item(1), Price: 1 }] }, [['Items[0].Price', 'FIELD_UNKNOWN']]],
      ['an unknown address field', { ShippingAddress: { Country: 'DE', State: 'BE' } }, [['ShippingAddress.State', 'FIELD_UNKNOWN']]],
    ])('400 INVALID_REQUEST for %s', async (_label, overrides, expected) => {
      await rejects(quoteBody(overrides), expected);
    });

    it('several errors of the same stage are all reported', async () => {
      // The request's shape is checked first (a negative amount, say), then the rules that need the data
      // (countries, regions, decimals, VAT numbers): the errors of the later stage come together.
      await rejects(quoteBody({ Currency: 'USD', ShippingAddress: to('US'), WarehouseAddress: to('XX'), Items: [item(1.001), item(2.5), item(0.015)] }), [
        ['ShippingAddress.Region', 'FIELD_MISSING'],
        ['WarehouseAddress.Country', 'FIELD_INVALID'],
        ['Items[0].Amount', 'FIELD_INVALID'],
        ['Items[2].Amount', 'FIELD_INVALID'],
      ]);
      await rejects(quoteBody({ Currency: 'eur', Items: [item(-1), { Sku: 'B' }] }), [
        ['Currency', 'FIELD_INVALID'],
        ['Items[0].Amount', 'FIELD_INVALID'],
        ['Items[1].Amount', 'FIELD_MISSING'],
      ]);
    });

    it('400 INVALID_CURRENCY for a well-formed but unsupported currency (XAU)', async () => {
      const res = await refused(() => post(quoteBody({ Currency: 'XAU' })), 400);
      expect(res.body).toEqual(INVALID_CURRENCY);
    });

    it('415 UNSUPPORTED_MEDIA_TYPE for a body that is not JSON', async () => {
      const res = await refused(
        () => t.http().post('/v1/tax/quote').auth(merchant.username, merchant.password).set('Content-Type', 'text/plain').send('Currency=EUR'),
        415,
      );
      expect(res.body).toEqual(UNSUPPORTED_MEDIA_TYPE);
    });

    it('400 INVALID_REQUEST for malformed JSON, and for a JSON array', async () => {
      const bad = await refused(
        () => t.http().post('/v1/tax/quote').auth(merchant.username, merchant.password).set('Content-Type', 'application/json').send('{"Currency":'),
        400,
      );
      expect(bad.body.Code).toBe('INVALID_REQUEST');
      const array = await refused(() => post([quoteBody()]), 400);
      expect(array.body.Code).toBe('INVALID_REQUEST');
    });

    it('400 VALIDATION_ERROR for an Id that is not a UUID', async () => {
      for (const id of ['not-a-uuid', '123', '7f1c2f7e-0b7a-4f0e-9a55-0e5c8c1d2e3']) {
        const res = await refused(() => get(id), 400);
        expect(res.body).toEqual(NOT_A_UUID);
      }
    });
  });
});
