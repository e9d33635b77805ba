import { isCountryCode, resolveSubdivision } from './countries';

describe('countries', () => {
  it.each([
    ['US', true],
    ['BR', true],
    ['us', false],
    ['XX', false],
    ['USA', false],
  ])('isCountryCode(%s) = %p', (code, valid) => expect(isCountryCode(code)).toBe(valid));

  it.each([
    ['CA', 'ON', 'CA-ON'],
    ['CA', 'CA-ON', 'CA-ON'],
    ['US', 'NY', 'US-NY'],
    ['MX', 'CMX', 'MX-CMX'],
    ['US', 'ON', null],
    ['CA', 'US-NY', null],
    ['US', 'ny', null],
    ['US', '', null],
  ])('resolveSubdivision(%s, %s) = %p', (country, region, expected) =>
    expect(resolveSubdivision(country, region)).toBe(expected),
  );
});
