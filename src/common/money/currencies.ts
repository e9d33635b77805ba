import * as currencyCodes from 'currency-codes';

/** The currencies the service accepts (spec section 2.9). */
export const SUPPORTED_CURRENCIES: ReadonlySet<string> = new Set(
  (
    'USD EUR CAD GBP AUD BRL JPY MXN CHF SGD ILS NZD HKD AED SEK SAR DKK NOK RUB MYR PHP THB KRW INR CLP PLN ' +
    'TWD TRY CZK KWD QAR ZAR HUF RON PEN IDR CNY EGP ARS COP ISK UAH HRK BND BHD CRC PKR BGN VND LKR MOP MAD ' +
    'GTQ BMD OMR RSD DOP PAB LBP TTD'
  ).split(' '),
);

/**
 * Codes withdrawn from ISO 4217 that the spec still lists; the maintained table no longer carries them,
 * so their last published minor-unit digits are kept here (HRK: replaced by EUR on 2023-01-01).
 */
const WITHDRAWN_CURRENCY_DIGITS: Record<string, number> = { HRK: 2 };

export const CURRENCY_CODE_FORMAT = /^[A-Z]{3}$/;

export function isSupportedCurrency(code: string): boolean {
  return SUPPORTED_CURRENCIES.has(code);
}

const digitsCache = new Map<string, number>();

/** ISO 4217 minor-unit digits (JPY 0, USD 2, KWD 3). */
export function currencyDigits(code: string): number {
  let digits = digitsCache.get(code);
  if (digits === undefined) {
    digits = currencyCodes.code(code)?.digits ?? WITHDRAWN_CURRENCY_DIGITS[code];
    if (digits === undefined) throw new Error(`Unknown currency ${code}`);
    digitsCache.set(code, digits);
  }
  return digits;
}
