import Decimal from 'decimal.js';

/** Mid-market rates: units of each currency per one unit of `base`, as exact decimal strings. */
export interface RateTable {
  asOf: string;
  base: string;
  rates: Record<string, string>;
}

/** Where exchange rates come from; the default reads the imported table or the shipped reference one. */
export interface RateSource {
  current(): Promise<RateTable>;
}

export const RATE_SOURCE = Symbol('RateSource');

/** Units of `to` per one unit of `from`, through the table's base, rounded to 8 significant digits. */
export function crossRate(table: RateTable, from: string, to: string): Decimal {
  const perBaseFrom = table.rates[from];
  const perBaseTo = table.rates[to];
  if (perBaseFrom === undefined || perBaseTo === undefined) throw new Error(`No rate for ${from}/${to}`);
  return new Decimal(perBaseTo).dividedBy(perBaseFrom).toSignificantDigits(8);
}
