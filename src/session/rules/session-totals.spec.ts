import { computeTotal, isStorableTotal } from './session-totals';

const none = { discounts: [], taxAmount: 0, shippingAmount: 0, dutyAmount: 0 };

describe('computeTotal', () => {
  it.each([
    {
      name: "the spec's example: 10×1 + 12×2 + 1 − 5 = 30",
      amounts: { ...none, items: [{ amount: 1000, quantity: 1 }, { amount: 1200, quantity: 2 }], discounts: [{ amount: 200 }, { amount: 300 }], taxAmount: 100 },
      total: 3000,
    },
    {
      name: 'shipping and duty are added',
      amounts: { ...none, items: [{ amount: 999, quantity: 3 }], shippingAmount: 500, dutyAmount: 125 },
      total: 3622,
    },
    {
      name: 'JPY in whole yen',
      amounts: { ...none, items: [{ amount: 1500, quantity: 2 }], discounts: [{ amount: 100 }] },
      total: 2900,
    },
    {
      name: 'many cents never drift',
      amounts: { ...none, items: Array.from({ length: 100 }, () => ({ amount: 1, quantity: 3 })) },
      total: 300,
    },
    {
      name: 'discounts larger than the total give a negative total',
      amounts: { ...none, items: [{ amount: 100, quantity: 1 }], discounts: [{ amount: 101 }] },
      total: -1,
    },
  ])('$name', ({ amounts, total }) => {
    expect(computeTotal(amounts).toNumber()).toBe(total);
  });

  it('rejects totals that cannot be stored exactly', () => {
    const huge = computeTotal({ ...none, items: [{ amount: 1e15, quantity: 1_000_000 }] });
    expect(isStorableTotal(huge)).toBe(false);
    expect(isStorableTotal(computeTotal({ ...none, items: [{ amount: 1, quantity: 1 }] }))).toBe(true);
  });
});
