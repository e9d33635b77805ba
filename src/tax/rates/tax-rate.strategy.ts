import { TaxCategory } from '../tax-codes';

/** One tax that applies to an item (a province's PST beside the federal GST, for instance). */
export interface TaxComponent {
  /** Shown to the shopper: "DE VAT", "CA-ON HST", "US-CA STATE SALES TAX". */
  name: string;
  /** vat, gst, hst, pst, qst, sales */
  type: string;
  /** Fraction as a decimal string ("0.19"), never a binary float. */
  rate: string;
}

export interface Destination {
  country: string;
  /** Full ISO 3166-2 code ("CA-ON"), when the address has one. */
  region: string | null;
}

/**
 * Where tax rates come from. The default reads maintained, dated data shipped with the service;
 * a deployment can bind another engine (a tax provider's API) to TAX_RATE_STRATEGY.
 */
export interface TaxRateStrategy {
  /** Taxes for a category of goods delivered to a destination on a date; [] where none applies. */
  componentsFor(destination: Destination, category: TaxCategory, on: Date): TaxComponent[];
  /** Whether the rate depends on the region (US states, Canadian provinces): then Region is required. */
  needsRegion(country: string): boolean;
}

export const TAX_RATE_STRATEGY = Symbol('TaxRateStrategy');
