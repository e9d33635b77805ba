import fc from 'fast-check';
import Decimal from 'decimal.js';
import { currencyDigits, isSupportedCurrency } from './currencies';
import { decimalPlaces, decimalToMinorUnits, fitsCurrency, formatMinorUnits, fromMinorUnits, toMinorUnits } from './money';

describe('currencies', () => {
  it.each([
    ['JPY', 0],
    ['USD', 2],
    ['KWD', 3],
    ['BHD', 3],
    ['CLP', 0],
    ['HRK', 2],
  ])('%s has %i minor-unit digits', (code, digits) => expect(currencyDigits(code)).toBe(digits));

  it('knows the spec list and nothing else', () => {
    expect(isSupportedCurrency('TTD')).toBe(true);
    expect(isSupportedCurrency('XAU')).toBe(false);
  });
});

describe('money', () => {
  it.each([
    [10, 0],
    [10.1, 1],
    [0.07, 2],
    [1e-7, 7],
    [123.456, 3],
  ])('decimalPlaces(%p) = %i', (value, places) => expect(decimalPlaces(value)).toBe(places));

  it.each([
    [0.1 + 0.2, 'USD', false],
    [19.99, 'USD', true],
    [1.5, 'JPY', false],
    [1500, 'JPY', true],
    [1.234, 'KWD', true],
    [1.2345, 'KWD', false],
  ])('fitsCurrency(%p, %s) = %p', (value, currency, fits) => expect(fitsCurrency(value, currency)).toBe(fits));

  it.each([
    [19.99, 'USD', 1999],
    [0.29, 'USD', 29],
    [1.005, 'KWD', 1005],
    [1500, 'JPY', 1500],
  ])('toMinorUnits(%p, %s) = %i without float error', (value, currency, minor) => {
    expect(toMinorUnits(value, currency)).toBe(minor);
    expect(fromMinorUnits(minor, currency)).toBe(value);
  });
});

describe('checkout decimal amounts', () => {
  it('reads decimal strings and numbers exactly in the currency\'s decimals', () => {
    expect(decimalToMinorUnits('12.50', 'USD')).toBe(1250);
    expect(decimalToMinorUnits('0.1', 'USD')).toBe(10);
    expect(decimalToMinorUnits(0.3, 'USD')).toBe(30);
    expect(decimalToMinorUnits('1500', 'JPY')).toBe(1500);
    expect(decimalToMinorUnits('1.255', 'KWD')).toBe(1255);
  });

  it('refuses too many decimals, signs, exponents and junk', () => {
    for (const bad of ['12.505', '-1', '1e3', '', ' ', 'abc', '1.', '.5', '0x10']) expect(decimalToMinorUnits(bad, 'USD')).toBeNull();
    expect(decimalToMinorUnits('1.5', 'JPY')).toBeNull();
    expect(decimalToMinorUnits(Number.NaN, 'USD')).toBeNull();
  });

  it('formats minor units with each currency\'s own decimals', () => {
    expect(formatMinorUnits(1250, 'USD')).toBe('12.50');
    expect(formatMinorUnits(1500, 'JPY')).toBe('1500');
    expect(formatMinorUnits(1255, 'KWD')).toBe('1.255');
    expect(formatMinorUnits(5, 'EUR')).toBe('0.05');
    expect(formatMinorUnits(-5, 'EUR')).toBe('-0.05');
    expect(formatMinorUnits(-1255, 'KWD')).toBe('-1.255');
    expect(formatMinorUnits(0, 'USD')).toBe('0.00');
  });

  it('formats every safe integer exactly as decimal arithmetic does', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.constantFrom('USD', 'JPY', 'KWD', 'CLF'), (minor, currency) => {
        const digits = { USD: 2, JPY: 0, KWD: 3, CLF: 4 }[currency]!;
        expect(formatMinorUnits(minor, currency)).toBe(new Decimal(minor).dividedBy(Decimal.pow(10, digits)).toFixed(digits));
      }),
      { numRuns: 2000 },
    );
  });
});
