import { createHash } from 'node:crypto';
import type { AuthorizationRequest } from './payment-processor';

/** Digits derived from the order id, so each order has its own (fictional) receiving account. */
const accountDigits = (orderId: string, length: number) =>
  BigInt(`0x${createHash('sha256').update(orderId).digest('hex').slice(0, 16)}`).toString().padStart(length, '0').slice(-length);

/** ISO 13616 check digits: the IBAN with "00" moved to the end, as a number, mod 97. */
export function ibanWithCheckDigits(country: string, bban: string): string {
  const rearranged = `${bban}${country}00`.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  const check = 98n - (BigInt(rearranged) % 97n);
  return `${country}${String(check).padStart(2, '0')}${bban}`;
}

/**
 * Where the shopper sends a bank transfer in the sandbox: a fictional receiving account of the merchant
 * of record in the payment currency, and the merchant's order number as the payment reference.
 */
export function sandboxBankDetails(request: AuthorizationRequest, accountHolder: string): Record<string, string> {
  const common = { AccountHolder: accountHolder, BankName: 'Sandbox Bank (test only)', PaymentReference: request.reference };
  switch (request.currency) {
    case 'EUR':
      // A German-format IBAN (bank code 8 digits + account 10 digits) with valid check digits.
      return { ...common, City: 'Frankfurt am Main', Country: 'DE', Iban: ibanWithCheckDigits('DE', `50010517${accountDigits(request.orderId, 10)}`), SwiftCode: 'SNDBDEFFXXX' };
    case 'GBP':
      return { ...common, City: 'London', Country: 'GB', AccountNumber: accountDigits(request.orderId, 8), ExtraBankData: 'Sort code 00-00-00', SwiftCode: 'SNDBGB2LXXX' };
    case 'USD':
      return { ...common, City: 'New York', Country: 'US', AccountNumber: accountDigits(request.orderId, 12), ExtraBankData: 'ABA routing number 110000000', SwiftCode: 'SNDBUS33XXX' };
    default:
      return { ...common, Country: 'US', AccountNumber: accountDigits(request.orderId, 12), SwiftCode: 'SNDBUS33XXX' };
  }
}
