import creditCardType from 'credit-card-type';
import { CheckoutError, CheckoutErrorCode } from '../../checkout/checkout-errors';

/** The `card` form field as sent beside a signed checkout (DESIGN.md section 5); lives only in memory. */
export interface CardInput {
  name: string;
  number: string;
  verificationCode: string;
  expiryMonth: number;
  expiryYear: number;
  /** The catalogue's PaymentMethod code for the card's scheme (VISA, MC, AMEX …). */
  brand: string;
}

/** credit-card-type's scheme names → the payment-method catalogue's codes. */
const BRANDS: Record<string, string> = {
  visa: 'VISA',
  mastercard: 'MC',
  'american-express': 'AMEX',
  discover: 'DISCOVER',
  jcb: 'JCB',
  'diners-club': 'DINERS',
  maestro: 'MAESTRO',
  elo: 'ELO',
  hipercard: 'HIPERCARD',
};

const fail = (code: CheckoutErrorCode, message: string): never => {
  throw new CheckoutError(code, message);
};

/** The Luhn (mod 10) check digit test every card number passes. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The scheme of a card number (by its issuer prefix and length), as a catalogue code, or null. */
export function cardBrand(digits: string): string | null {
  const match = creditCardType(digits).find((type) => BRANDS[type.type] && type.lengths.includes(digits.length));
  return match ? BRANDS[match.type] : null;
}

/**
 * Checks the `card` field of a checkout: JSON {Name, Number, VerificationCode, Expiry{Month, Year}}.
 * Each problem has the real API's code. The error messages never repeat the number or the code.
 */
export function parseCard(text: string, now: Date): CardInput {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return fail(CheckoutErrorCode.RequestMalformed, 'The "card" field is not JSON');
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return fail(CheckoutErrorCode.RequestMalformed, 'The "card" field must be a JSON object');
  const card = raw as Record<string, unknown>;

  const name = typeof card.Name === 'string' ? card.Name.trim() : '';
  if (!name || [...name].length > 100) fail(CheckoutErrorCode.CardNameInvalid, 'Card Name must be 1 to 100 characters');

  const number = typeof card.Number === 'string' ? card.Number.replace(/[\s-]/g, '') : '';
  if (!/^\d{12,19}$/.test(number) || !passesLuhn(number)) fail(CheckoutErrorCode.CardNumberInvalid, 'Card Number is not a valid card number');
  const brand = cardBrand(number) ?? fail(CheckoutErrorCode.CardNumberInvalid, 'Card Number belongs to no supported card scheme');

  const expiry = (card.Expiry ?? {}) as Record<string, unknown>;
  const month = Number(expiry.Month);
  if (!Number.isInteger(month) || month < 1 || month > 12) fail(CheckoutErrorCode.CardMonthInvalid, 'Card Expiry.Month must be 1 to 12');
  let year = Number(expiry.Year);
  if (Number.isInteger(year) && year >= 0 && year < 100) year += 2000;
  if (!Number.isInteger(year) || year < 2000 || year > 2100) fail(CheckoutErrorCode.CardYearInvalid, 'Card Expiry.Year must be a year such as 2030');
  // A card is valid through the last day of its expiry month (UTC, generous to the shopper).
  if (Date.UTC(year, month, 1) <= now.getTime()) fail(CheckoutErrorCode.CardExpired, 'The card has expired');

  const code = typeof card.VerificationCode === 'string' ? card.VerificationCode : String(card.VerificationCode ?? '');
  const codeLength = brand === 'AMEX' ? 4 : 3;
  if (!new RegExp(`^\\d{${codeLength}}$`).test(code)) {
    fail(CheckoutErrorCode.CardVerificationCodeInvalid, `Card VerificationCode must be ${codeLength} digits`);
  }
  return { name, number, verificationCode: code, expiryMonth: month, expiryYear: year, brand };
}
