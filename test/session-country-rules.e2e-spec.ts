import type { Response } from 'supertest';
import { profileFor, sessionBody, shippingDetails, VALID_PROFILES } from './setup/factories';
import { rowCounts } from './setup/row-counts';
import { Credentials, startTestApp, TestApp } from './setup/test-app';

type Body = Record<string, unknown>;
type FieldCode = 'FIELD_MISSING' | 'FIELD_INVALID' | 'FIELD_UNKNOWN' | 'FIELD_CONFLICT';

const BP = 'BillingProfile';
const ADDR = 'BillingProfile.Address';
const SHIP = 'ShippingDetails.Address';

/** Country rules of spec 2.3-2.5 with DESIGN.md section 4, for billing and shipping addresses. */
describe('Session interface: country rules', () => {
  let t: TestApp;
  let merchant: Credentials;

  beforeAll(async () => {
    t = await startTestApp();
    merchant = await t.merchantUser();
  });
  afterAll(() => t.close());

  const post = (body: Body) => t.http().post('/v2.22/session').auth(merchant.username, merchant.password).send(body);
  const get = (id: string) => t.http().get(`/v2.22/session/${id}`).auth(merchant.username, merchant.password);

  /** Creates a session that must be accepted; GET must show the same session. */
  async function accepted(body: Body): Promise<Response> {
    const res = await post(body);
    expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: expect.objectContaining({ State: 'CREATED' }) });
    expect((await get(res.body.SessionId)).body).toEqual(res.body);
    return res;
  }

  /** A request that must be 400 INVALID_REQUEST with exactly these FieldErrors, writing no row. */
  async function rejected(body: Body, expected: [string, FieldCode][]): Promise<Response> {
    const before = await rowCounts(t.dataSource);
    const res = await post(body);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { Code: 'INVALID_REQUEST', Message: 'Invalid request syntax', FieldErrors: expect.any(Array), RequestId: expect.any(String) },
    });
    for (const error of res.body.FieldErrors) {
      expect(error).toEqual({ Field: expect.any(String), Code: expect.any(String), Message: expect.stringMatching(/\S/) });
    }
    const actual = (res.body.FieldErrors as { Field: string; Code: string }[]).map((e) => [e.Field, e.Code]);
    expect(actual.sort()).toEqual([...expected].sort());
    expect(await rowCounts(t.dataSource)).toEqual(before);
    return res;
  }

  const billing = (country: string, changes: Body = {}, address: Body = {}) =>
    sessionBody({ BillingProfile: profileFor(country, changes, address) });

  describe('every country profile of the factories is valid as it is', () => {
    it.each(Object.keys(VALID_PROFILES))('%s', async (country) => {
      const res = await accepted(billing(country));
      const { BillingProfileId, ...profile } = res.body.BillingProfile;
      expect(BillingProfileId).toBe(res.body.BillingProfileId);
      expect(profile).toEqual(VALID_PROFILES[country]);
    });
  });

  describe('BR: BirthDate, NationalIdentifier (CPF/CNPJ), Company with a CNPJ, Postcode', () => {
    it.each([
      ['CPF with punctuation', { NationalIdentifier: '529.982.247-25' }, {}],
      ['CPF as digits', { NationalIdentifier: '52998224725' }, {}],
      ['CNPJ with Company', { NationalIdentifier: '11.222.333/0001-81', Company: 'Acme Comércio Ltda' }, {}],
      ['CNPJ as digits with Company', { NationalIdentifier: '11222333000181', Company: 'Acme Comércio Ltda' }, {}],
      ['Company without a CNPJ', { Company: 'Acme Comércio Ltda' }, {}],
      ['Postcode 01310-100', {}, { Postcode: '01310-100' }],
      ['Postcode 01310100', {}, { Postcode: '01310100' }],
      ['no Region', {}, { Region: undefined }],
      ['BirthDate on 29 February of a leap year', { BirthDate: '2000-02-29' }, {}],
    ])('accepts %s', async (_label, changes, address) => {
      const body = billing('BR', changes, address);
      const res = await accepted(body);
      const { BillingProfileId: _id, ...profile } = res.body.BillingProfile;
      expect(profile).toEqual(body.BillingProfile);
    });

    it('accepts the alias Birthdate and returns it as BirthDate', async () => {
      const res = await accepted(billing('BR', { BirthDate: undefined, Birthdate: '1985-11-02' }));
      expect(res.body.BillingProfile.BirthDate).toBe('1985-11-02');
      expect(res.body.BillingProfile).not.toHaveProperty('Birthdate');
    });

    it('accepts BirthDate and Birthdate together when they agree', async () => {
      const res = await accepted(billing('BR', { BirthDate: '1985-11-02', Birthdate: '1985-11-02' }));
      expect(res.body.BillingProfile.BirthDate).toBe('1985-11-02');
      expect(res.body.BillingProfile).not.toHaveProperty('Birthdate');
    });

    it.each([
      ['no BirthDate', { BirthDate: undefined }, {}, [[`${BP}.BirthDate`, 'FIELD_MISSING']]],
      ['a BirthDate in the future', { BirthDate: '2999-01-01' }, {}, [[`${BP}.BirthDate`, 'FIELD_INVALID']]],
      ['an impossible BirthDate (30 February)', { BirthDate: '1990-02-30' }, {}, [[`${BP}.BirthDate`, 'FIELD_INVALID']]],
      ['29 February of a common year', { BirthDate: '2001-02-29' }, {}, [[`${BP}.BirthDate`, 'FIELD_INVALID']]],
      ['an impossible BirthDate (month 13)', { BirthDate: '1990-13-01' }, {}, [[`${BP}.BirthDate`, 'FIELD_INVALID']]],
      ['a BirthDate as dd/MM/yyyy', { BirthDate: '17/05/1990' }, {}, [[`${BP}.BirthDate`, 'FIELD_INVALID']]],
      ['a BirthDate with a time', { BirthDate: '1990-05-17T00:00:00Z' }, {}, [[`${BP}.BirthDate`, 'FIELD_INVALID']]],
      ['a future alias Birthdate', { BirthDate: undefined, Birthdate: '2999-01-01' }, {}, [[`${BP}.Birthdate`, 'FIELD_INVALID']]],
      ['an impossible alias Birthdate', { BirthDate: undefined, Birthdate: '1990-02-30' }, {}, [[`${BP}.Birthdate`, 'FIELD_INVALID']]],
      ['BirthDate and Birthdate that differ', { Birthdate: '1991-01-01' }, {}, [[`${BP}.Birthdate`, 'FIELD_CONFLICT']]],
      ['no NationalIdentifier', { NationalIdentifier: undefined }, {}, [[`${BP}.NationalIdentifier`, 'FIELD_MISSING']]],
      ['a CPF with a wrong check digit', { NationalIdentifier: '529.982.247-24' }, {}, [[`${BP}.NationalIdentifier`, 'FIELD_INVALID']]],
      ['a CPF of repeated digits', { NationalIdentifier: '111.111.111-11' }, {}, [[`${BP}.NationalIdentifier`, 'FIELD_INVALID']]],
      ['a CPF that is too short', { NationalIdentifier: '529.982.247' }, {}, [[`${BP}.NationalIdentifier`, 'FIELD_INVALID']]],
      ['a CPF with letters', { NationalIdentifier: 'ABC.982.247-25' }, {}, [[`${BP}.NationalIdentifier`, 'FIELD_INVALID']]],
      ['a CNPJ without Company', { NationalIdentifier: '11.222.333/0001-81' }, {}, [[`${BP}.Company`, 'FIELD_MISSING']]],
      ['a CNPJ with a wrong check digit', { NationalIdentifier: '11.222.333/0001-82', Company: 'Acme' }, {}, [[`${BP}.NationalIdentifier`, 'FIELD_INVALID']]],
      ['no Postcode', {}, { Postcode: undefined }, [[`${ADDR}.Postcode`, 'FIELD_MISSING']]],
      ['Postcode 1234', {}, { Postcode: '1234' }, [[`${ADDR}.Postcode`, 'FIELD_INVALID']]],
      ['Postcode ABCDE-FGH', {}, { Postcode: 'ABCDE-FGH' }, [[`${ADDR}.Postcode`, 'FIELD_INVALID']]],
      [
        'every BR field missing at once',
        { BirthDate: undefined, NationalIdentifier: undefined },
        { Postcode: undefined },
        [[`${BP}.BirthDate`, 'FIELD_MISSING'], [`${BP}.NationalIdentifier`, 'FIELD_MISSING'], [`${ADDR}.Postcode`, 'FIELD_MISSING']],
      ],
    ] as [string, Body, Body, [string, FieldCode][]][])('rejects %s', async (_label, changes, address, errors) => {
      await rejected(billing('BR', changes, address), errors);
    });
  });

  describe('AR: NationalIdentifier (DNI or CUIT/CUIL)', () => {
    it.each([
      ['a DNI of 8 digits', '12345678'],
      ['a DNI of 7 digits', '1234567'],
      ['a DNI with dots', '12.345.678'],
      ['a CUIT with dashes', '20-12345678-6'],
      ['a CUIT as digits', '20123456786'],
      ['a company CUIT', '30-71234567-1'],
    ])('accepts %s (%s)', async (_label, id) => {
      const res = await accepted(billing('AR', { NationalIdentifier: id }));
      expect(res.body.BillingProfile.NationalIdentifier).toBe(id);
    });

    it('needs no BirthDate, Region or Postcode', async () => {
      await accepted(billing('AR', {}, { Postcode: undefined, Region: undefined }));
    });

    it.each([
      ['no NationalIdentifier', undefined, 'FIELD_MISSING'],
      ['a DNI of 6 digits', '123456', 'FIELD_INVALID'],
      ['a DNI of 9 digits', '123456789', 'FIELD_INVALID'],
      ['a CUIT with a wrong check digit', '20-12345678-7', 'FIELD_INVALID'],
      ['a CUIT with an unknown prefix', '21-12345678-6', 'FIELD_INVALID'],
      ['letters', 'ABCDEFGH', 'FIELD_INVALID'],
      ['a Brazilian CPF', '529.982.247-25', 'FIELD_INVALID'],
    ] as [string, string | undefined, FieldCode][])('rejects %s', async (_label, id, code) => {
      await rejected(billing('AR', { NationalIdentifier: id }), [[`${BP}.NationalIdentifier`, code]]);
    });
  });

  describe('IN: NationalIdentifier (Aadhaar with Verhoeff check digit, or PAN)', () => {
    it.each([
      ['an Aadhaar number', '234123412346'],
      ['an Aadhaar number with spaces', '2341 2341 2346'],
      ['a PAN', 'ABCPE1234F'],
      ['a company PAN', 'AAACB1234C'],
    ])('accepts %s (%s)', async (_label, id) => {
      const res = await accepted(billing('IN', { NationalIdentifier: id }));
      expect(res.body.BillingProfile.NationalIdentifier).toBe(id);
    });

    it.each([
      ['no NationalIdentifier', undefined, 'FIELD_MISSING'],
      ['an Aadhaar number with a wrong check digit', '234123412345', 'FIELD_INVALID'],
      ['an Aadhaar number starting with 1', '123412341234', 'FIELD_INVALID'],
      ['an Aadhaar number of 11 digits', '23412341234', 'FIELD_INVALID'],
      ['a PAN with an invalid holder type', 'ABCDE1234F', 'FIELD_INVALID'],
      ['a PAN that is too short', 'ABCPE1234', 'FIELD_INVALID'],
      ['a PAN with digits where letters go', 'ABC1E1234F', 'FIELD_INVALID'],
    ] as [string, string | undefined, FieldCode][])('rejects %s', async (_label, id, code) => {
      await rejected(billing('IN', { NationalIdentifier: id }), [[`${BP}.NationalIdentifier`, code]]);
    });
  });

  describe('US, CA, MX: Region (ISO 3166-2 subdivision) and Postcode', () => {
    it.each([
      ['US', 'CA'],
      ['US', 'US-CA'],
      ['US', 'NY'],
      ['US', 'US-NY'],
      ['US', 'DC'],
      ['CA', 'ON'],
      ['CA', 'CA-ON'],
      ['CA', 'QC'],
      ['CA', 'CA-BC'],
      ['MX', 'CMX'],
      ['MX', 'MX-CMX'],
      ['MX', 'JAL'],
      ['MX', 'MX-NLE'],
    ])('%s accepts Region %s and returns it exactly as sent', async (country, region) => {
      const res = await accepted(billing(country, {}, { Region: region }));
      expect(res.body.BillingProfile.Address.Region).toBe(region);
    });

    it.each([
      ['US', 'ON'],
      ['US', 'CA-ON'],
      ['US', 'US-ON'],
      ['US', 'XX'],
      ['US', 'California'],
      ['CA', 'US-NY'],
      ['CA', 'NY'],
      ['CA', 'CA-'],
      ['MX', 'NY'],
      ['MX', 'US-CA'],
      ['MX', 'MX-XXX'],
    ])('%s rejects Region %s', async (country, region) => {
      await rejected(billing(country, {}, { Region: region }), [[`${ADDR}.Region`, 'FIELD_INVALID']]);
    });

    it.each(['US', 'CA', 'MX'])('%s requires a Region', async (country) => {
      await rejected(billing(country, {}, { Region: undefined }), [[`${ADDR}.Region`, 'FIELD_MISSING']]);
    });

    it.each([
      ['US', '95014'],
      ['US', '95014-1234'],
      ['US', '10001'],
      ['CA', 'M5V 2T6'],
      ['CA', 'M5V2T6'],
      ['CA', 'H3Z 2Y7'],
      ['MX', '06600'],
      ['MX', '44100'],
    ])('%s accepts Postcode %s and returns it as sent', async (country, postcode) => {
      const res = await accepted(billing(country, {}, { Postcode: postcode }));
      expect(res.body.BillingProfile.Address.Postcode).toBe(postcode);
    });

    it.each([
      ['US', 'ABCDE'],
      ['US', '9501'],
      ['US', '950141234'],
      ['US', 'M5V 2T6'],
      ['CA', '12345'],
      ['CA', 'M5V 2T'],
      ['CA', 'ABC DEF'],
      ['MX', '6600'],
      ['MX', 'ABCDE'],
      ['MX', '066000'],
    ])('%s rejects Postcode %s', async (country, postcode) => {
      await rejected(billing(country, {}, { Postcode: postcode }), [[`${ADDR}.Postcode`, 'FIELD_INVALID']]);
    });

    it.each(['US', 'CA', 'MX'])('%s requires a Postcode', async (country) => {
      await rejected(billing(country, {}, { Postcode: undefined }), [[`${ADDR}.Postcode`, 'FIELD_MISSING']]);
    });

    it.each(['US', 'CA', 'MX'])('%s reports a missing Region and a bad Postcode together', async (country) => {
      await rejected(billing(country, {}, { Region: undefined, Postcode: '!' }), [
        [`${ADDR}.Region`, 'FIELD_MISSING'],
        [`${ADDR}.Postcode`, 'FIELD_INVALID'],
      ]);
    });

    it.each(['US', 'CA', 'MX'])('%s needs no NationalIdentifier or BirthDate', async (country) => {
      const res = await accepted(billing(country, { NationalIdentifier: undefined, BirthDate: undefined }));
      expect(res.body.BillingProfile).not.toHaveProperty('NationalIdentifier');
      expect(res.body.BillingProfile).not.toHaveProperty('BirthDate');
    });
  });

  describe('a country without these rules (DE)', () => {
    it('needs no Region, Postcode, BirthDate, NationalIdentifier or Company', async () => {
      const res = await accepted(billing('DE'));
      expect(res.body.BillingProfile.Address).toEqual({ Street: 'Unter den Linden 1', City: 'Berlin', Country: 'DE' });
    });

    it('takes a free-form Region, Postcode and NationalIdentifier as sent', async () => {
      const res = await accepted(billing('DE', { NationalIdentifier: 'T22000129' }, { Region: 'BE', Postcode: '10117' }));
      expect(res.body.BillingProfile).toMatchObject({
        NationalIdentifier: 'T22000129',
        Address: { Region: 'BE', Postcode: '10117', Country: 'DE' },
      });
    });

    it('still rejects a BirthDate in the future', async () => {
      await rejected(billing('DE', { BirthDate: '2999-12-31' }), [[`${BP}.BirthDate`, 'FIELD_INVALID']]);
    });
  });

  describe('Address.Country', () => {
    it.each([
      ['XX', 'FIELD_INVALID'],
      ['ZZ', 'FIELD_INVALID'],
      ['de', 'FIELD_INVALID'],
      ['De', 'FIELD_INVALID'],
      ['DEU', 'FIELD_INVALID'],
      ['D', 'FIELD_INVALID'],
      [276, 'FIELD_INVALID'],
      [undefined, 'FIELD_MISSING'],
    ] as [unknown, FieldCode][])('%p is rejected (%s)', async (country, code) => {
      await rejected(billing('DE', {}, { Country: country }), [[`${ADDR}.Country`, code]]);
    });

    it('the rules follow Address.Country: a US address with CA rules is checked as US', async () => {
      await rejected(billing('CA', {}, { Country: 'US' }), [
        [`${ADDR}.Region`, 'FIELD_INVALID'],
        [`${ADDR}.Postcode`, 'FIELD_INVALID'],
      ]);
    });
  });

  describe('Phone: BillingProfile.Phone and its alias BillingProfile.Address.Phone', () => {
    it('Address.Phone is accepted and returned as BillingProfile.Phone', async () => {
      const res = await accepted(billing('DE', {}, { Phone: '+49 30 123456' }));
      expect(res.body.BillingProfile.Phone).toBe('+49 30 123456');
      expect(res.body.BillingProfile.Address).not.toHaveProperty('Phone');
    });

    it('Phone is returned as sent', async () => {
      const res = await accepted(billing('DE', { Phone: '+49 30 654321' }));
      expect(res.body.BillingProfile.Phone).toBe('+49 30 654321');
    });

    it('both may be sent when they agree', async () => {
      const res = await accepted(billing('DE', { Phone: '+49 30 111' }, { Phone: '+49 30 111' }));
      expect(res.body.BillingProfile.Phone).toBe('+49 30 111');
    });

    it('both differing is FIELD_CONFLICT on the alias', async () => {
      await rejected(billing('DE', { Phone: '+49 30 111' }, { Phone: '+49 30 222' }), [[`${ADDR}.Phone`, 'FIELD_CONFLICT']]);
    });

    it('the reused profile keeps the phone given through the alias', async () => {
      const first = await accepted(billing('US', { BillingProfileReference: 'bp-phone-alias' }, { Phone: '+1 408 555 0100' }));
      const res = await accepted({ ...sessionBody({ BillingProfile: undefined }), BillingProfileReference: 'bp-phone-alias' });
      expect(res.body.BillingProfile).toEqual(first.body.BillingProfile);
      expect(res.body.BillingProfile.Phone).toBe('+1 408 555 0100');
    });
  });

  describe('ShippingDetails.Address follows the same Country, Region and Postcode rules', () => {
    const shipTo = (address: Body) => sessionBody({ BillingProfile: profileFor('DE'), ShippingDetails: shippingDetails({}, address) });
    const US = { Street: '1 Infinite Loop', City: 'Cupertino', Region: 'CA', Country: 'US', Postcode: '95014' };
    const MX = { Street: 'Av. Reforma 222', City: 'Ciudad de México', Region: 'CMX', Country: 'MX', Postcode: '06600' };
    const BR = { Street: 'Av. Paulista 1000', City: 'São Paulo', Region: undefined, Country: 'BR', Postcode: '01310-100' };
    const DE = { Street: 'Unter den Linden 1', City: 'Berlin', Region: undefined, Country: 'DE', Postcode: undefined };

    it.each([
      ['CA with ON', {}],
      ['CA with CA-ON', { Region: 'CA-ON' }],
      ['US with CA', US],
      ['US with US-NY and a ZIP+4', { ...US, Region: 'US-NY', Postcode: '10001-0001' }],
      ['MX with CMX', MX],
      ['MX with MX-JAL', { ...MX, Region: 'MX-JAL', Postcode: '44100' }],
      ['BR (Postcode only; no BirthDate or NationalIdentifier for shipping)', BR],
      ['DE with neither Region nor Postcode', DE],
    ])('accepts %s, returned as sent', async (_label, address) => {
      const body = shipTo(address);
      const res = await accepted(body);
      expect(res.body.ShippingDetails).toEqual(JSON.parse(JSON.stringify(body.ShippingDetails)));
    });

    it.each([
      ['US with Region ON', { ...US, Region: 'ON' }, [[`${SHIP}.Region`, 'FIELD_INVALID']]],
      ['CA with Region US-NY', { Region: 'US-NY' }, [[`${SHIP}.Region`, 'FIELD_INVALID']]],
      ['MX with Region NY', { ...MX, Region: 'NY' }, [[`${SHIP}.Region`, 'FIELD_INVALID']]],
      ['US without Region', { ...US, Region: undefined }, [[`${SHIP}.Region`, 'FIELD_MISSING']]],
      ['CA without Region', { Region: undefined }, [[`${SHIP}.Region`, 'FIELD_MISSING']]],
      ['MX without Region', { ...MX, Region: undefined }, [[`${SHIP}.Region`, 'FIELD_MISSING']]],
      ['US with Postcode ABCDE', { ...US, Postcode: 'ABCDE' }, [[`${SHIP}.Postcode`, 'FIELD_INVALID']]],
      ['CA with Postcode 12345', { Postcode: '12345' }, [[`${SHIP}.Postcode`, 'FIELD_INVALID']]],
      ['MX with Postcode 6600', { ...MX, Postcode: '6600' }, [[`${SHIP}.Postcode`, 'FIELD_INVALID']]],
      ['BR with Postcode 1234', { ...BR, Postcode: '1234' }, [[`${SHIP}.Postcode`, 'FIELD_INVALID']]],
      ['US without Postcode', { ...US, Postcode: undefined }, [[`${SHIP}.Postcode`, 'FIELD_MISSING']]],
      ['BR without Postcode', { ...BR, Postcode: undefined }, [[`${SHIP}.Postcode`, 'FIELD_MISSING']]],
      ['Country XX', { ...DE, Country: 'XX' }, [[`${SHIP}.Country`, 'FIELD_INVALID']]],
      ['Country de', { ...DE, Country: 'de' }, [[`${SHIP}.Country`, 'FIELD_INVALID']]],
      ['no Country', { ...DE, Country: undefined }, [[`${SHIP}.Country`, 'FIELD_MISSING']]],
      ['a Phone inside the address (the alias is billing only)', { Phone: '+1 416 555 0100' }, [[`${SHIP}.Phone`, 'FIELD_UNKNOWN']]],
    ] as [string, Body, [string, FieldCode][]][])('rejects %s', async (_label, address, errors) => {
      await rejected(shipTo(address), errors);
    });

    it('billing and shipping problems are reported together', async () => {
      await rejected(
        sessionBody({ BillingProfile: profileFor('US', {}, { Region: 'ON' }), ShippingDetails: shippingDetails({}, { Postcode: '12345' }) }),
        [
          [`${ADDR}.Region`, 'FIELD_INVALID'],
          [`${SHIP}.Postcode`, 'FIELD_INVALID'],
        ],
      );
    });
  });

  describe('the rules apply to updates too', () => {
    let sessionId: string;
    let original: Body;

    beforeAll(async () => {
      const res = await accepted(billing('US'));
      sessionId = res.body.SessionId;
      original = res.body;
    });

    const update = (body: Body) =>
      t.http().put(`/v2.22/session/${sessionId}`).auth(merchant.username, merchant.password).send({ ...body, MerchantReference: original.MerchantReference });

    it.each([
      ['a BR profile without BirthDate', billing('BR', { BirthDate: undefined }), `${BP}.BirthDate`, 'FIELD_MISSING'],
      ['an IN profile with a bad Aadhaar number', billing('IN', { NationalIdentifier: '234123412345' }), `${BP}.NationalIdentifier`, 'FIELD_INVALID'],
      ['a US profile with a Canadian Region', billing('US', {}, { Region: 'ON' }), `${ADDR}.Region`, 'FIELD_INVALID'],
      ['a shipping address without Postcode', sessionBody({ ShippingDetails: shippingDetails({}, { Postcode: undefined }) }), `${SHIP}.Postcode`, 'FIELD_MISSING'],
    ])('%s is refused and the session is unchanged', async (_label, body, field, code) => {
      const before = await rowCounts(t.dataSource);
      const res = await update(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ Code: 'INVALID_REQUEST', Message: 'Invalid request syntax', FieldErrors: [expect.objectContaining({ Field: field, Code: code })], RequestId: expect.any(String) });
      expect(await rowCounts(t.dataSource)).toEqual(before);
      expect((await get(sessionId)).body).toEqual(original);
    });

    it('a valid BR profile (CNPJ with Company, alias Birthdate) replaces the billing profile', async () => {
      const res = await update(
        billing('BR', { NationalIdentifier: '11.222.333/0001-81', Company: 'Acme Comércio Ltda', BirthDate: undefined, Birthdate: '1980-01-31' }),
      );
      expect(res.status).toBe(200);
      expect(res.body.BillingProfile).toMatchObject({
        NationalIdentifier: '11.222.333/0001-81',
        Company: 'Acme Comércio Ltda',
        BirthDate: '1980-01-31',
        Address: { Country: 'BR', Postcode: '01310-100' },
      });
      expect(res.body.BillingProfile).not.toHaveProperty('Birthdate');
      expect((await get(sessionId)).body).toEqual(res.body);
    });
  });
});
