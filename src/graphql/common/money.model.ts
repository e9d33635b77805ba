import { Field, ObjectType } from '@nestjs/graphql';
import Decimal from 'decimal.js';
import { currencyDigits } from '../../common/money/currencies';
import { formatMinorUnits } from '../../common/money/money';

/** An exact amount: never a float, always a decimal string in the currency's own decimals. */
@ObjectType({ description: 'An exact amount of money.' })
export class Money {
  @Field({ description: 'Decimal string with the currency\'s ISO 4217 decimals: "12.50" USD, "1250" JPY, "1.250" KWD.' })
  amount: string;

  @Field({ description: 'ISO 4217 currency code.' })
  currency: string;
}

/**
 * Money from integer minor units whose decimal string is made only if the query asks for it. A class,
 * not an object literal with a getter: that literal defines its accessor anew for every amount of
 * every row, which cost a dashboard page several percent of its CPU.
 */
class MinorUnitsMoney implements Money {
  constructor(
    private readonly minor: number,
    readonly currency: string,
  ) {}

  get amount(): string {
    return formatMinorUnits(this.minor, this.currency);
  }
}

/** An amount from integer minor units (see MinorUnitsMoney). */
export const money = (minor: number, currency: string): Money => new MinorUnitsMoney(minor, currency);

/**
 * A sum of minor units as the database returns it (text, so that it may exceed 2^53) as a decimal
 * string in the currency's decimals. Safe integers go through formatMinorUnits like every other amount.
 */
export function formatMinorSum(sum: string | number | null, currency: string): string {
  const text = String(sum ?? 0);
  const minor = Number(text);
  if (Number.isSafeInteger(minor)) return formatMinorUnits(minor, currency);
  const digits = currencyDigits(currency);
  return new Decimal(text).dividedBy(Decimal.pow(10, digits)).toFixed(digits);
}
