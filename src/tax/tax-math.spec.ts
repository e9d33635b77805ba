import { computeItemTax } from './tax-math';

const vat = (rate: string, name = 'VAT') => ({ name, type: 'vat', rate });
const GST = { name: 'CA GST', type: 'gst', rate: '0.05' };
const QST = { name: 'CA-QC QST', type: 'qst', rate: '0.09975' };
const HST = { name: 'CA-ON HST', type: 'hst', rate: '0.08' };
const PST = { name: 'CA-BC PST', type: 'pst', rate: '0.07' };

describe('computeItemTax', () => {
  describe('one component', () => {
    it.each([
      // amount, included, rate, net, tax
      [10000, false, '0.19', 10000, 1900],
      [10000, true, '0.19', 8403, 1597], // 10000 / 1.19 = 8403.36
      [2399, true, '0.086', 2209, 190], // the spec: 23.99 → 22.09 + 1.90
      [2399, false, '0.086', 2399, 206], // 206.314
      [1000, false, '0.055', 1000, 55],
      [1, false, '0.19', 1, 0], // 0.19 rounds down
      [3, false, '0.19', 3, 1], // 0.57 rounds up
      [50, false, '0.01', 50, 1], // 0.5 exactly: half-up
      [50, true, '0.01', 50, 0], // 50 − 49.50495 = 0.495 → 0
      [0, false, '0.2', 0, 0],
      [0, true, '0.2', 0, 0],
      [120, true, '0.2', 100, 20], // exact
      [99_999_999_999, false, '0.2', 99_999_999_999, 20_000_000_000], // large amounts stay exact
    ])('%d (tax included: %s) at %s → net %d, tax %d', (amount, included, rate, net, tax) => {
      const result = computeItemTax(amount, included, [vat(rate)]);
      expect(result).toEqual({ net, tax, lines: [{ name: 'VAT', type: 'vat', amount: tax }] });
      if (included) expect(result.net + result.tax).toBe(amount);
    });
  });

  describe('several components (GST beside a provincial tax)', () => {
    it.each([
      // components, amount, included, line amounts, net
      [[GST, QST], 10000, false, [500, 998], 10000], // QST 997.5 → 998 (half-up)
      [[GST, PST], 10000, false, [500, 700], 10000],
      [[GST, HST], 10000, false, [500, 800], 10000],
      [[GST, QST], 11498, true, [500, 998], 10000], // 11498 / 1.14975 = 10000.43 → tax 1498
      [[GST, QST], 10000, true, [435, 867], 8698], // tax 1302.46 → 1302, GST share 434.7 → 435, QST the remainder
      [[GST, PST], 1, false, [0, 0], 1],
      [[GST, QST], 7, true, [0, 1], 6], // tax 0.912 → 1, GST share 0.33 → 0, QST takes the remainder
    ])('%j on %d (included: %s) → lines %j', (components, amount, included, amounts, net) => {
      const result = computeItemTax(amount, included, components);
      expect(result.lines.map((l) => l.amount)).toEqual(amounts);
      expect(result.lines.map((l) => l.name)).toEqual(components.map((c) => c.name));
      expect(result.tax).toBe(amounts.reduce((a, b) => a + b, 0));
      expect(result.net).toBe(net);
      if (included) expect(result.net + result.tax).toBe(amount);
    });

    it('the parts always add up to the total, included or not, for every amount up to 20 000', () => {
      for (let amount = 0; amount <= 20_000; amount += 7) {
        for (const included of [false, true]) {
          for (const components of [[GST, QST], [GST, PST], [GST, HST]]) {
            const result = computeItemTax(amount, included, components);
            expect(result.lines.reduce((sum, l) => sum + l.amount, 0)).toBe(result.tax);
            expect(result.lines.every((l) => Number.isInteger(l.amount) && l.amount >= 0)).toBe(true);
            expect(result.net + (included ? result.tax : 0)).toBe(amount);
          }
        }
      }
    });
  });

  describe('no tax', () => {
    it.each([
      ['no components', [] as { name: string; type: string; rate: string }[], []],
      ['a zero rate', [vat('0')], [{ name: 'VAT', type: 'vat', amount: 0 }]],
      ['zero rates', [vat('0', 'A'), vat('0', 'B')], [{ name: 'A', type: 'vat', amount: 0 }, { name: 'B', type: 'vat', amount: 0 }]],
    ])('%s: net = amount, tax 0', (_label, components, lines) => {
      for (const included of [false, true]) {
        expect(computeItemTax(2399, included, components)).toEqual({ net: 2399, tax: 0, lines });
      }
    });
  });

  describe('rounding per item, the quote total being the sum of the items', () => {
    const quote = (amounts: number[], included: boolean, rate: string) => {
      const items = amounts.map((a) => computeItemTax(a, included, [vat(rate)]));
      return {
        items,
        net: items.reduce((s, i) => s + i.net, 0),
        tax: items.reduce((s, i) => s + i.tax, 0),
      };
    };

    it.each([
      // item amount, count, included, rate, tax per item
      [1, 100, false, '0.19', 0], // 0.19 each rounds to 0 (the total of 100 would be 19)
      [1, 100, true, '0.19', 0], // 1 − 1/1.19 = 0.16 → 0
      [3, 100, false, '0.19', 1], // 0.57 → 1 each: 100, not 57
      [5, 250, false, '0.1', 1], // 0.5 → 1 (half-up)
      [2, 1000, true, '0.25', 0], // 2 − 1.6 = 0.4 → 0
      [1, 10, false, '0.5', 1], // 0.5 → 1
    ])('%d minor units × %d items (included: %s) at %s: %d tax each', (amount, count, included, rate, each) => {
      const q = quote(Array(count).fill(amount), included, rate);
      for (const item of q.items) expect(item.tax).toBe(each);
      expect(q.tax).toBe(each * count);
      expect(q.net).toBe(included ? (amount - each) * count : amount * count);
    });

    it('a mixed quote: the totals are exactly the sums of the rounded items', () => {
      const amounts = [1, 2, 3, 4, 5, 99, 101, 2399, 19_999, 7];
      for (const included of [false, true]) {
        const q = quote(amounts, included, '0.19');
        const expectedTax = amounts.map((a) => computeItemTax(a, included, [vat('0.19')]).tax).reduce((s, t) => s + t, 0);
        expect(q.tax).toBe(expectedTax);
        expect(q.net + (included ? q.tax : 0)).toBe(amounts.reduce((s, a) => s + a, 0));
      }
    });
  });

  describe('currencies of 0 and 3 decimals: the maths is in minor units', () => {
    it.each([
      // JPY: 1 minor unit = 1 yen
      ['JPY', 1000, false, '0.1', 1000, 100],
      ['JPY', 1100, true, '0.1', 1000, 100],
      ['JPY', 999, false, '0.1', 999, 100], // 99.9 → 100 yen
      ['JPY', 105, false, '0.1', 105, 11], // 10.5 → 11 yen (half-up)
      ['JPY', 4, false, '0.1', 4, 0], // 0.4 yen → 0
      ['JPY', 1, true, '0.1', 1, 0],
      // KWD: 1 minor unit = 1 fils = 0.001 KWD
      ['KWD', 1005, false, '0.05', 1005, 50], // 1.005 KWD → 0.05025 → 0.050
      ['KWD', 1010, false, '0.05', 1010, 51], // 50.5 fils → 51
      ['KWD', 1005, true, '0.05', 957, 48], // 1005 / 1.05 = 957.14
      ['KWD', 1, false, '0.05', 1, 0],
      ['KWD', 123_456, false, '0.05', 123_456, 6173], // 6172.8
    ])('%s %d (included: %s) at %s → net %d, tax %d', (_currency, amount, included, rate, net, tax) => {
      const result = computeItemTax(amount, included, [vat(rate)]);
      expect(result.net).toBe(net);
      expect(result.tax).toBe(tax);
      expect(Number.isInteger(result.tax) && Number.isInteger(result.net)).toBe(true);
    });
  });
});
