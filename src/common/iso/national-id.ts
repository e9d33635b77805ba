import { cnpj, cpf } from 'cpf-cnpj-validator';

/** What a valid national identifier turned out to be; null when it is not valid for the country. */
export type NationalIdKind = 'CPF' | 'CNPJ' | 'DNI' | 'CUIT' | 'AADHAAR' | 'PAN';

const digitsOnly = (value: string) => value.replace(/[.\-/\s]/g, '');

/** Brazil: CPF (people, 11 digits) or CNPJ (companies, 14), check digits verified. */
function brazil(value: string): NationalIdKind | null {
  const digits = digitsOnly(value);
  if (/^\d{11}$/.test(digits)) return cpf.isValid(digits) ? 'CPF' : null;
  if (/^\d{14}$/.test(digits)) return cnpj.isValid(digits) ? 'CNPJ' : null;
  return null;
}

/** Argentina: DNI (7-8 digits, no check digit) or CUIT/CUIL (11 digits, mod-11 check digit). */
function argentina(value: string): NationalIdKind | null {
  const digits = digitsOnly(value);
  if (/^\d{7,8}$/.test(digits)) return 'DNI';
  if (/^(20|23|24|27|30|33|34)\d{9}$/.test(digits) && cuitCheckDigit(digits) === Number(digits[10])) return 'CUIT';
  return null;
}

function cuitCheckDigit(digits: string): number {
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((acc, weight, i) => acc + weight * Number(digits[i]), 0);
  const check = 11 - (sum % 11);
  return check === 11 ? 0 : check === 10 ? 9 : check;
}

/** India: Aadhaar (12 digits, Verhoeff check digit) or PAN (AAAAA9999A). */
function india(value: string): NationalIdKind | null {
  const digits = digitsOnly(value);
  if (/^[2-9]\d{11}$/.test(digits)) return verhoeffValid(digits) ? 'AADHAAR' : null;
  if (/^[A-Z]{3}[ABCFGHLJPT][A-Z]\d{4}[A-Z]$/.test(value.trim().toUpperCase())) return 'PAN';
  return null;
}

const VERHOEFF_D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const VERHOEFF_P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

function verhoeffValid(digits: string): boolean {
  let c = 0;
  const reversed = digits.split('').reverse();
  reversed.forEach((digit, i) => {
    c = VERHOEFF_D[c][VERHOEFF_P[i % 8][Number(digit)]];
  });
  return c === 0;
}

const VALIDATORS: Record<string, (value: string) => NationalIdKind | null> = {
  BR: brazil,
  AR: argentina,
  IN: india,
};

/** Countries whose billing profiles must carry a NationalIdentifier. */
export const NATIONAL_ID_COUNTRIES = Object.keys(VALIDATORS);

/** Classifies a national identifier for a country; null when invalid. Countries without rules accept any. */
export function classifyNationalId(country: string, value: string): NationalIdKind | null | 'UNCHECKED' {
  const validator = VALIDATORS[country];
  return validator ? validator(value) : 'UNCHECKED';
}
