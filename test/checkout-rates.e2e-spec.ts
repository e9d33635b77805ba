import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MerchantService } from '../src/auth/merchant.service';
import { CheckoutClient } from '../src/checkout/client/checkout-client';
import { RateOffer } from '../src/checkout/rates/rate.entities';
import shipped from '../src/checkout/rates/reference-rates.json';
import { SUPPORTED_CURRENCIES } from '../src/common/money/currencies';
import { startTestApp, TestApp } from './setup/test-app';

const ROOT = join(__dirname, '..');

describe('Checkout interface: getRates', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}/v2.22`;
  });
  afterAll(() => t.close());

  const clientFor = async (input: { remittanceCurrency?: string; rateMode?: string } = {}) => {
    const { merchant, signingSecret } = await t.app.get(MerchantService).create({ name: 'Rates shop', ...input });
    return new CheckoutClient({ baseUrl: base, merchantId: merchant.id, signingSecret });
  };
  const cli = (...args: string[]) =>
    promisify(execFile)('node', [join(ROOT, 'scripts/cli.js'), ...args], { cwd: ROOT, env: { ...process.env, ...t.env } }).then(
      ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
  const expireOffersWithin = (hours: number) =>
    t.dataSource.createQueryBuilder().update(RateOffer).set({ expiresAt: new Date(Date.now() + hours * 3600_000) }).execute();

  it('a guaranteed-rate merchant gets a 24-hour offer for every other supported currency', async () => {
    const before = Date.now();
    const { RateOffers: offers } = await (await clientFor()).getRates();
    expect(offers!.map((o) => o.Currency).sort()).toEqual([...SUPPORTED_CURRENCIES].filter((c) => c !== 'USD').sort());
    for (const offer of offers!) {
      expect(offer.Id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(offer.Expiry)).toBeGreaterThanOrEqual(before + 24 * 3600_000 - 1000);
      expect(Date.parse(offer.Expiry)).toBeLessThanOrEqual(Date.now() + 24 * 3600_000 + 1000);
    }
    expect(offers!.find((o) => o.Currency === 'EUR')!.Rate).toBe(Number(shipped.rates.EUR));
  });

  it('rates are against the remittance currency, exact to 8 significant digits', async () => {
    const { RateOffers: offers } = await (await clientFor({ remittanceCurrency: 'EUR' })).getRates();
    const usd = offers!.find((o) => o.Currency === 'USD')!;
    expect(usd.Rate).toBe(1.1723329); // 1 / 0.853
    expect(offers!.find((o) => o.Currency === 'GBP')!.Rate).toBe(0.85463072); // 0.729 / 0.853
    expect(offers!.some((o) => o.Currency === 'EUR')).toBe(false);
  });

  it('offers are shared and reused while fresh, and renewed when less than 18 hours remain', async () => {
    const a = await (await clientFor({ remittanceCurrency: 'CAD' })).getRates();
    const b = await (await clientFor({ remittanceCurrency: 'CAD' })).getRates();
    expect(b.RateOffers!.map((o) => o.Id)).toEqual(a.RateOffers!.map((o) => o.Id));

    await expireOffersWithin(17);
    const c = await (await clientFor({ remittanceCurrency: 'CAD' })).getRates();
    expect(c.RateOffers!.map((o) => o.Id)).not.toEqual(a.RateOffers!.map((o) => o.Id));
  });

  it('a spot-rate merchant gets indicative rates without offers', async () => {
    const view = await (await clientFor({ rateMode: 'spot' })).getRates();
    expect(view.RateOffers).toBeUndefined();
    expect(view.Indicative).toBe(true);
    expect(view.Rates!.find((r) => r.Currency === 'JPY')).toEqual({ Currency: 'JPY', Rate: 144 });
  });

  it('cli rates import replaces the reference table; new offers use it', async () => {
    const file = join(t.database.dir, 'rates.json');
    writeFileSync(file, JSON.stringify({ asOf: '2026-11-20', base: 'USD', rates: { ...shipped.rates, EUR: '0.9' } }));
    const result = await cli('rates', 'import', file);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ Imported: SUPPORTED_CURRENCIES.size, AsOf: '2026-11-20', Base: 'USD' });

    await expireOffersWithin(1);
    const { RateOffers: offers } = await (await clientFor()).getRates();
    expect(offers!.find((o) => o.Currency === 'EUR')!.Rate).toBe(0.9);
  }, 60_000);

  it.each([
    ['a date that is not a date', { asOf: 'yesterday' }, /asOf/],
    ['a negative rate', { rates: { ...shipped.rates, EUR: '-1' } }, /rates\.EUR/],
    ['a rate as a binary float', { rates: { ...shipped.rates, EUR: 0.9 } }, /rates\.EUR must be a positive decimal written as a string/],
    ['an unsupported currency', { rates: { ...shipped.rates, XAU: '0.0003' } }, /rates\.XAU is not a supported currency/],
    ['a missing currency', { rates: Object.fromEntries(Object.entries(shipped.rates).filter(([c]) => c !== 'JPY')) }, /rates\.JPY is missing/],
  ])('a rate file with %s is refused with the reason and changes nothing', async (_, override, message) => {
    const file = join(t.database.dir, 'bad-rates.json');
    writeFileSync(file, JSON.stringify({ asOf: '2026-11-21', base: 'USD', rates: shipped.rates, ...override }));
    const before = await t.dataSource.query('SELECT COUNT(*) AS n, MAX(as_of) AS asOf FROM reference_rate');
    const result = await cli('rates', 'import', file);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(message);
    expect(await t.dataSource.query('SELECT COUNT(*) AS n, MAX(as_of) AS asOf FROM reference_rate')).toEqual(before);
  }, 60_000);
});
