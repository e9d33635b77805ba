import { currencyDigits, isSupportedCurrency } from './currencies';
import { decimalPlaces, fitsCurrency, fromMinorUnits, toMinorUnits } from './money';

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
