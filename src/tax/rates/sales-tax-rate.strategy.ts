import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { TaxCategory } from '../tax-codes';
import { REDUCED_RATES } from './reduced-rates';
import { Destination, TaxComponent, TaxRateStrategy } from './tax-rate.strategy';

// The sales-tax package's offline rate table (PwC and government sources, with scheduled changes).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RATES: Record<string, RateRecord> = require('sales-tax/res/sales_tax_rates.json');

interface RateEntry {
  type: string;
  rate: number;
  before?: Record<string, RateEntry>;
}
interface RateRecord extends RateEntry {
  states?: Record<string, RateEntry>;
}

/**
 * Default rates: country-level VAT/GST and US state / Canadian provincial rates from the sales-tax
 * package, reduced rates by category from the dated table in reduced-rates.ts.
 * Not modelled: US county, city and district sales taxes (only the state-level rate the package
 * carries), US product exemptions by state (groceries are taxed at the state rate), and Canadian
 * point-of-sale rebates such as Ontario's on printed books.
 */
@Injectable()
export class SalesTaxRateStrategy implements TaxRateStrategy {
  needsRegion(country: string): boolean {
    return country === 'US' || country === 'CA';
  }

  componentsFor(destination: Destination, category: TaxCategory, on: Date): TaxComponent[] {
    const record = RATES[destination.country];
    if (!record || category === TaxCategory.Exempt) return [];
    const components: TaxComponent[] = [];

    const national = entryOn(record, on);
    if (national.rate > 0 && national.type !== 'none') {
      components.push({ name: `${destination.country} ${national.type.toUpperCase()}`, type: national.type, rate: fraction(national.rate) });
    }
    const stateCode = destination.region?.split('-')[1];
    const state = stateCode ? record.states?.[stateCode] : undefined;
    if (state) {
      const current = entryOn(state, on);
      if (current.rate > 0 && current.type !== 'none') {
        // The package labels US state sales tax "vat"; say what it is.
        const type = destination.country === 'US' ? 'sales' : current.type;
        const name = destination.country === 'US' ? `${destination.region} STATE SALES TAX` : `${destination.region} ${type.toUpperCase()}`;
        components.push({ name, type, rate: fraction(current.rate) });
      }
    }
    return applyCategory(destination.country, category, components);
  }
}

/** The entry in force on a date: `before` holds earlier entries keyed by the date they stopped applying. */
function entryOn(entry: RateEntry, on: Date): RateEntry {
  const changes = Object.keys(entry.before ?? {}).sort();
  const until = changes.find((date) => on < new Date(date));
  return until ? entry.before![until] : entry;
}

function fraction(rate: number): string {
  return new Decimal(String(rate)).toString();
}

/** Replaces the standard rate by the category's reduced one where the country has it. */
function applyCategory(country: string, category: TaxCategory, components: TaxComponent[]): TaxComponent[] {
  if (category === TaxCategory.Standard) return components;
  const reduced = REDUCED_RATES[country]?.[category as 'books' | 'food'];
  if (reduced === undefined) return components;
  const rate = new Decimal(reduced).dividedBy(100).toString();
  if (country === 'CA' || country === 'AU') {
    // Zero-rated groceries: no component applies (GST, HST, PST and QST alike).
    return rate === '0' ? [] : components.map((c) => ({ ...c, rate }));
  }
  return components.map((c) => ({ ...c, rate }));
}
