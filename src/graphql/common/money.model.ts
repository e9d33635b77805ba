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

/** An amount from integer minor units; the decimal string is made only if the query asks for it. */
export const money = (minor: number, currency: string): Money => ({
  currency,
  get amount() {
    return formatMinorUnits(minor, currency);
  },
});

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
