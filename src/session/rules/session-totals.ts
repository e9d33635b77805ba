import Decimal from 'decimal.js';
import { MAX_MINOR_UNITS } from '../../common/money/money';

/** Session amounts in integer minor units. */
export interface SessionAmounts {
  items: { amount: number; quantity: number }[];
  discounts: { amount: number }[];
  taxAmount: number;
  shippingAmount: number;
  dutyAmount: number;
}

/**
 * TotalAmount = TaxAmount + ShippingAmount + DutyAmount + Σ(Item.Amount × Quantity) − Σ Discount.Amount
 * (DESIGN.md section 4). Exact decimal sum; the caller rejects a negative or oversized result.
 */
export function computeTotal(amounts: SessionAmounts): Decimal {
  const items = amounts.items.reduce((sum, item) => sum.plus(new Decimal(item.amount).times(item.quantity)), new Decimal(0));
  const discounts = amounts.discounts.reduce((sum, discount) => sum.plus(discount.amount), new Decimal(0));
  return items.plus(amounts.taxAmount).plus(amounts.shippingAmount).plus(amounts.dutyAmount).minus(discounts);
}

export function isStorableTotal(total: Decimal): boolean {
  return total.isInteger() && total.gte(0) && total.lte(MAX_MINOR_UNITS);
}
