/**
 * Reduced VAT/GST rates by category, where a country taxes books or food below its standard rate.
 *
 * Source: European Commission, "VAT rates applied in the Member States of the European Union"
 * (taxation_customs, situation at 1 January 2025), HMRC VAT Notice 701/14 (food) and 701/10 (books),
 * Canada Revenue Agency GST/HST on basic groceries, Australian Taxation Office GST-free food.
 * Reviewed: 2025-07-01. Categories not listed for a country use its standard rate. A rate change
 * is a data change here (with a new review date), like a change in the sales-tax package.
 *
 * Values are percentages as strings. Canada and Australia zero-rate basic groceries for every component.
 */
export const REDUCED_RATES_REVIEWED = '2025-07-01';

export const REDUCED_RATES: Record<string, { books?: string; food?: string }> = {
  AT: { books: '10', food: '10' },
  BE: { books: '6', food: '6' },
  BG: { books: '9' },
  HR: { books: '5', food: '5' },
  CY: { books: '5', food: '5' },
  CZ: { books: '0', food: '12' },
  DK: {},
  EE: { books: '9' },
  FI: { books: '14', food: '14' },
  FR: { books: '5.5', food: '5.5' },
  DE: { books: '7', food: '7' },
  GR: { books: '6', food: '13' },
  HU: { books: '5', food: '18' },
  IE: { books: '0', food: '0' },
  IT: { books: '4', food: '4' },
  LV: { books: '12' },
  LT: { books: '9' },
  LU: { books: '3', food: '3' },
  MT: { books: '5', food: '0' },
  NL: { books: '9', food: '9' },
  PL: { books: '5', food: '5' },
  PT: { books: '6', food: '6' },
  RO: { books: '11', food: '11' },
  SK: { books: '5', food: '19' },
  SI: { books: '5', food: '9.5' },
  ES: { books: '4', food: '4' },
  SE: { books: '6', food: '12' },
  GB: { books: '0', food: '0' },
  CA: { food: '0' },
  AU: { food: '0' },
};

/** EU member states (intra-community reverse charge applies between them). */
export const EU_MEMBER_STATES: ReadonlySet<string> = new Set(
  'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE'.split(' '),
);
