import Decimal from 'decimal.js';

export interface TaxLine {
  name: string;
  type: string;
  /** Minor units. */
  amount: number;
}

export interface ItemTax {
  /** Net amount of the line in minor units (the amount less tax when tax was included). */
  net: number;
  /** Total tax of the line in minor units: always the sum of the lines. */
  tax: number;
  lines: TaxLine[];
}

/**
 * Tax of one item line, rounded half-up to the currency's minor unit, per item.
 * Exclusive: each component is its rate times the amount. Inclusive: the tax inside the amount is
 * amount − amount / (1 + Σ rates) (8.6 % splits 23.99 into 22.09 + 1.90), shared among the
 * components by rate, the last one taking the rounding remainder so that the parts add up exactly.
 */
export function computeItemTax(
  amountMinor: number,
  taxIncluded: boolean,
  components: { name: string; type: string; rate: string }[],
): ItemTax {
  const amount = new Decimal(amountMinor);
  const totalRate = components.reduce((sum, c) => sum.plus(c.rate), new Decimal(0));
  if (components.length === 0 || totalRate.isZero()) {
    return { net: amountMinor, tax: 0, lines: components.map((c) => ({ name: c.name, type: c.type, amount: 0 })) };
  }

  if (!taxIncluded) {
    const lines = components.map((c) => ({ name: c.name, type: c.type, amount: roundHalfUp(amount.times(c.rate)) }));
    return { net: amountMinor, tax: lines.reduce((sum, line) => sum + line.amount, 0), lines };
  }

  const tax = roundHalfUp(amount.minus(amount.dividedBy(totalRate.plus(1))));
  let remaining = tax;
  const lines = components.map((c, i) => {
    const share = i === components.length - 1 ? remaining : roundHalfUp(new Decimal(tax).times(c.rate).dividedBy(totalRate));
    remaining -= share;
    return { name: c.name, type: c.type, amount: share };
  });
  return { net: amountMinor - tax, tax, lines };
}

function roundHalfUp(value: Decimal): number {
  return value.toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
}
