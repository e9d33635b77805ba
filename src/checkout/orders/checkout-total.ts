import { decimalToMinorUnits, formatMinorUnits, MAX_MINOR_UNITS } from '../../common/money/money';
import { CheckoutError, CheckoutErrorCode } from '../checkout-errors';
import type { CheckoutRequestDto } from './checkout-request.dto';

const minor = (value: string | number, currency: string, field: string): number => {
  const amount = decimalToMinorUnits(value, currency);
  if (amount === null) throw new CheckoutError(CheckoutErrorCode.AmountInvalid, `${field} must have at most the decimals of ${currency}`);
  return amount;
};

/**
 * ConsumerTotal must equal Σ(ConsumerPrice × Quantity) + charges − discounts + shipping price, taxes and
 * duty, to the currency's own decimals (integer minor units: no rounding anywhere). Returns it in minor units.
 */
export function checkedConsumerTotal(request: CheckoutRequestDto): number {
  const currency = request.ConsumerCurrency;
  let sum = 0;
  request.Items.forEach((item, i) => {
    sum += minor(item.ConsumerPrice, currency, `Items[${i}].ConsumerPrice`) * Number(item.Quantity);
  });
  request.Charges?.forEach((charge, i) => {
    sum += minor(charge.ConsumerPrice, currency, `Charges[${i}].ConsumerPrice`);
  });
  request.Discounts?.forEach((discount, i) => {
    sum -= minor(discount.ConsumerPrice, currency, `Discounts[${i}].ConsumerPrice`);
  });
  if (request.Shipping) {
    sum += minor(request.Shipping.ConsumerPrice, currency, 'Shipping.ConsumerPrice');
    if (request.Shipping.ConsumerTaxes !== undefined) sum += minor(request.Shipping.ConsumerTaxes, currency, 'Shipping.ConsumerTaxes');
    if (request.Shipping.ConsumerDuty !== undefined) sum += minor(request.Shipping.ConsumerDuty, currency, 'Shipping.ConsumerDuty');
  }
  if (!Number.isSafeInteger(sum) || sum > MAX_MINOR_UNITS) throw new CheckoutError(CheckoutErrorCode.AmountInvalid, 'The amounts are too large');
  if (sum <= 0) throw new CheckoutError(CheckoutErrorCode.AmountInvalid, 'The order total must be greater than zero');

  const total = minor(request.ConsumerTotal, currency, 'ConsumerTotal');
  if (total !== sum) {
    throw new CheckoutError(
      CheckoutErrorCode.ConsumerTotalInvalid,
      `ConsumerTotal ${formatMinorUnits(total, currency)} does not equal items + charges − discounts + shipping, taxes and duty = ${formatMinorUnits(sum, currency)} ${currency}`,
    );
  }
  return total;
}
