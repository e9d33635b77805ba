import Decimal from 'decimal.js';
import { readFileSync } from 'node:fs';
import { TransactionRunner } from '../../common/database/transaction-runner';
import { SUPPORTED_CURRENCIES } from '../../common/money/currencies';
import { RateTable } from './rate-source';
import { ReferenceRate } from './rate.entities';

/** Reads and checks a rate file: {"asOf":"YYYY-MM-DD","base":"USD","rates":{"EUR":"0.91",…}}, every supported currency present. */
export function readRateFile(path: string): RateTable {
  const table = JSON.parse(readFileSync(path, 'utf8')) as Partial<RateTable>;
  const problems: string[] = [];
  if (typeof table.asOf !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(table.asOf)) problems.push('asOf must be a date as YYYY-MM-DD');
  if (typeof table.base !== 'string' || !SUPPORTED_CURRENCIES.has(table.base)) problems.push('base must be a supported currency');
  const rates = table.rates ?? {};
  for (const currency of SUPPORTED_CURRENCIES) {
    const value = rates[currency];
    if (value === undefined) problems.push(`rates.${currency} is missing`);
    else if (typeof value !== 'string' || !/^\d+(\.\d+)?$/.test(value) || new Decimal(value).lte(0)) {
      problems.push(`rates.${currency} must be a positive decimal written as a string`);
    }
  }
  for (const currency of Object.keys(rates)) if (!SUPPORTED_CURRENCIES.has(currency)) problems.push(`rates.${currency} is not a supported currency`);
  if (table.base && rates[table.base] !== undefined && !new Decimal(rates[table.base]).eq(1)) problems.push(`rates.${table.base} (the base) must be 1`);
  if (problems.length) throw new Error(`${path}:\n  ${problems.join('\n  ')}`);
  return table as RateTable;
}

/** Replaces the imported rates in one transaction: readers see the old table or the new one, never a mix. */
export async function importRates(transactions: TransactionRunner, table: RateTable): Promise<number> {
  return transactions.run(async (manager) => {
    await manager.getRepository(ReferenceRate).clear();
    const rows = Object.entries(table.rates).map(([currency, rate]) => ({ currency, rate, base: table.base, asOf: table.asOf }));
    await manager.getRepository(ReferenceRate).insert(rows);
    return rows.length;
  });
}
