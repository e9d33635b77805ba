import Decimal from 'decimal.js';
import { currencyDigits } from './currencies';

/** Largest amount (in minor units) the service stores; keeps every sum an exact JS integer. */
export const MAX_MINOR_UNITS = Number.MAX_SAFE_INTEGER;

/** Decimal places of a JSON number as written (1e-7 counts as 7, 10.10 arrives as 10.1). */
export function decimalPlaces(value: number): number {
  return new Decimal(String(value)).decimalPlaces();
}

/** True when the amount has no more decimals than the currency allows. */
export function fitsCurrency(value: number, currency: string): boolean {
  return decimalPlaces(value) <= currencyDigits(currency);
}

/** Major units (a JSON number) to integer minor units, exactly. The caller has checked the decimals. */
export function toMinorUnits(value: number, currency: string): number {
  return new Decimal(String(value)).times(Decimal.pow(10, currencyDigits(currency))).toNumber();
}

/** Integer minor units back to a major-unit JSON number (30.5 for 3050 USD cents). */
export function fromMinorUnits(minor: number, currency: string): number {
  return new Decimal(minor).dividedBy(Decimal.pow(10, currencyDigits(currency))).toNumber();
}

/**
 * A decimal amount as the Checkout interface sends it ("12.50", or a JSON number) to integer minor
 * units, exactly; null when it is not a plain non-negative decimal or has more decimals than the currency.
 */
export function decimalToMinorUnits(value: string | number, currency: string): number | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  if (!/^\d{1,15}(\.\d{1,6})?$/.test(text)) return null;
  const amount = new Decimal(text);
  if (amount.decimalPlaces() > currencyDigits(currency)) return null;
  const minor = amount.times(Decimal.pow(10, currencyDigits(currency)));
  return minor.lte(MAX_MINOR_UNITS) ? minor.toNumber() : null;
}

/** Minor units as a decimal string with the currency's own decimals ("12.50", "1250" for JPY, "1.250" for KWD). */
export function formatMinorUnits(minor: number, currency: string): string {
  const digits = currencyDigits(currency);
  if (!Number.isSafeInteger(minor)) return new Decimal(minor).dividedBy(Decimal.pow(10, digits)).toFixed(digits);
  // Exact by construction (the decimal point is placed in the integer's digits); this runs for every amount shown.
  if (digits === 0) return String(minor);
  const text = String(Math.abs(minor)).padStart(digits + 1, '0');
  return `${minor < 0 ? '-' : ''}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}
