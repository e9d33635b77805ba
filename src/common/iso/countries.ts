import * as countries from 'i18n-iso-countries';
import * as iso31662 from 'iso-3166-2';

/** Upper-case ISO 3166-1 alpha-2 code of an existing country. */
export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && countries.isValid(code);
}

/**
 * Resolves a region sent either as the subdivision part ("ON") or as the full ISO 3166-2 code ("CA-ON")
 * to the full code, or null when it is not a subdivision of that country.
 */
export function resolveSubdivision(country: string, region: string): string | null {
  const full = region.includes('-') ? region : `${country}-${region}`;
  if (!full.startsWith(`${country}-`)) return null;
  const subdivision = iso31662.subdivision(full) as { countryCode?: string; code?: string } | null;
  return subdivision?.countryCode === country && subdivision.code === full ? full : null;
}
