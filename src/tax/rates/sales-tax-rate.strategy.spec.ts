import { TaxCategory } from '../tax-codes';
import { SalesTaxRateStrategy } from './sales-tax-rate.strategy';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const PACKAGE_RATES = require('sales-tax/res/sales_tax_rates.json');

const strategy = new SalesTaxRateStrategy();
const ON = new Date('2025-07-01T00:00:00Z');
const rates = (country: string, region: string | null, category = TaxCategory.Standard, on = ON) =>
  strategy.componentsFor({ country, region }, category, on).map((c) => [c.type, c.rate]);

describe('SalesTaxRateStrategy.componentsFor', () => {
  it.each([
    ['DE', null, TaxCategory.Standard, [['vat', '0.19']]],
    ['DE', null, TaxCategory.Books, [['vat', '0.07']]],
    ['DE', null, TaxCategory.Food, [['vat', '0.07']]],
    ['FR', null, TaxCategory.Standard, [['vat', '0.2']]],
    ['FR', null, TaxCategory.Food, [['vat', '0.055']]],
    ['FR', null, TaxCategory.Books, [['vat', '0.055']]],
    ['AT', null, TaxCategory.Standard, [['vat', '0.2']]],
    ['DK', null, TaxCategory.Food, [['vat', '0.25']]], // no reduced rate: standard
    ['IE', null, TaxCategory.Books, [['vat', '0']]],
    ['GB', null, TaxCategory.Standard, [['vat', '0.2']]],
    ['GB', null, TaxCategory.Books, [['vat', '0']]],
    ['GB', null, TaxCategory.Food, [['vat', '0']]],
    ['CA', 'CA-ON', TaxCategory.Standard, [['gst', '0.05'], ['hst', '0.08']]],
    ['CA', 'CA-BC', TaxCategory.Standard, [['gst', '0.05'], ['pst', '0.07']]],
    ['CA', 'CA-QC', TaxCategory.Standard, [['gst', '0.05'], ['qst', '0.09975']]],
    ['CA', 'CA-NS', TaxCategory.Standard, [['gst', '0.05'], ['hst', '0.09']]],
    ['CA', 'CA-AB', TaxCategory.Standard, [['gst', '0.05']]], // GST only
    ['CA', 'CA-ON', TaxCategory.Food, []],
    ['CA', 'CA-BC', TaxCategory.Food, []],
    ['CA', 'CA-QC', TaxCategory.Books, [['gst', '0.05'], ['qst', '0.09975']]],
    ['AU', null, TaxCategory.Standard, [['gst', '0.1']]],
    ['AU', null, TaxCategory.Food, []],
    ['US', 'US-CA', TaxCategory.Standard, [['sales', String(PACKAGE_RATES.US.states.CA.rate)]]],
    ['US', 'US-NY', TaxCategory.Standard, [['sales', String(PACKAGE_RATES.US.states.NY.rate)]]],
    ['US', 'US-OR', TaxCategory.Standard, []],
    ['US', 'US-CA', TaxCategory.Exempt, []],
    ['HK', null, TaxCategory.Standard, []],
    ['DE', null, TaxCategory.Exempt, []],
    ['CA', 'CA-ON', TaxCategory.Exempt, []],
    ['XX', null, TaxCategory.Standard, []],
  ])('%s %s %s → %j', (country, region, category, expected) => {
    expect(rates(country, region, category)).toEqual(expected);
  });

  it('US-CA is the package\'s state rate (0.0725 or its current value), named as a state sales tax', () => {
    const [component] = strategy.componentsFor({ country: 'US', region: 'US-CA' }, TaxCategory.Standard, ON);
    expect(component).toEqual({ name: 'US-CA STATE SALES TAX', type: 'sales', rate: String(PACKAGE_RATES.US.states.CA.rate) });
  });

  it('names the components for the shopper', () => {
    expect(strategy.componentsFor({ country: 'CA', region: 'CA-ON' }, TaxCategory.Standard, ON).map((c) => c.name)).toEqual([
      'CA GST',
      'CA-ON HST',
    ]);
    expect(strategy.componentsFor({ country: 'DE', region: null }, TaxCategory.Standard, ON).map((c) => c.name)).toEqual(['DE VAT']);
  });

  it.each([
    ['FI', null, '2024-06-01T00:00:00Z', [['vat', '0.24']]],
    ['FI', null, '2025-01-01T00:00:00Z', [['vat', '0.255']]],
    ['DE', null, '2020-08-01T00:00:00Z', [['vat', '0.16']]], // the temporary 2020 cut
    ['DE', null, '2020-03-01T00:00:00Z', [['vat', '0.19']]],
    ['DE', null, '2021-02-01T00:00:00Z', [['vat', '0.19']]],
    ['CA', 'CA-NS', '2025-03-01T00:00:00Z', [['gst', '0.05'], ['hst', '0.1']]],
    ['CA', 'CA-NS', '2025-04-02T00:00:00Z', [['gst', '0.05'], ['hst', '0.09']]],
  ])('dated changes: %s %s on %s → %j', (country, region, on, expected) => {
    expect(rates(country, region, TaxCategory.Standard, new Date(on))).toEqual(expected);
  });

  it('a region is needed for the US and Canada only', () => {
    expect(['US', 'CA', 'DE', 'AU', 'HK'].map((c) => strategy.needsRegion(c))).toEqual([true, true, false, false, false]);
  });
});
