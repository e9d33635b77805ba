import Decimal from 'decimal.js';
import { currencyDigits } from '../common/money/currencies';

/**
 * The remittance maths, pure: each order or refund converted to the remittance currency at its rate,
 * a fee on payments, refunds netted as negative lines. Integer minor units throughout; every line is
 * rounded half-up (away from zero on a tie) to the remittance currency's minor unit on its own, and the
 * totals are sums of the rounded lines, so a report always adds up to the remitted amount exactly.
 */

/** Enough digits for 2^53 minor units divided by an 8-significant-digit rate without a second rounding. */
const Exact = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP });

export enum RemittanceLineType {
  Payment = 'Payment',
  Refund = 'Refund',
}

/** The merchant-of-record fee on each payment: `percent` of the converted amount plus `fixedMinor`. */
export interface FeeRule {
  /** A decimal string, 0 to 100 ("2.9"). */
  percent: string;
  /** Minor units of the remittance currency (30 = 0.30 USD, but 30 JPY). */
  fixedMinor: number;
}

/** A Processed order or a Succeeded refund to settle, in the consumer's currency. */
export interface SettlementItem {
  orderId: string;
  /** Set for a refund. */
  refundId: string | null;
  merchantReference: string;
  /** When the order was processed or the refund succeeded. */
  occurredAt: Date;
  /** Positive minor units of `consumerCurrency`. */
  consumerMinor: number;
  consumerCurrency: string;
  /** Units of the consumer currency per one unit of the remittance currency (the rate offers' convention). */
  rate: string;
  rateOfferId: string | null;
}

/** A settlement item as a line of the remittance: its amounts signed (a refund is negative) and converted. */
export interface RemittanceLineDraft extends SettlementItem {
  lineType: RemittanceLineType;
  /** The consumer amount converted to the remittance currency, rounded; signed like consumerMinor. */
  grossMinor: number;
  /** Kept by the merchant of record; 0 on refunds (the fee of a refunded payment is not returned). */
  feeMinor: number;
  /** grossMinor − feeMinor: what this line adds to (or, negative, takes from) the remittance. */
  remittedMinor: number;
}

export interface RemittanceTotals {
  /** Σ converted payments. */
  grossMinor: number;
  /** Σ converted refunds, as a positive amount. */
  refundsMinor: number;
  feesMinor: number;
  /** grossMinor − refundsMinor − feesMinor = Σ lines' remittedMinor (negative: the merchant owes it). */
  remittedMinor: number;
  lineCount: number;
}

export interface RemittanceCalculation {
  lines: RemittanceLineDraft[];
  totals: RemittanceTotals;
}

/** Rate "1" when the consumer paid in the remittance currency. */
export const SAME_CURRENCY_RATE = '1';

/** The rate as a positive Decimal; anything else is a data error, never silently settled. */
export function parseRate(rate: string): Decimal {
  if (!/^\d{1,20}(\.\d{1,30})?(e-?\d{1,2})?$/i.test(rate)) throw new Error(`Invalid exchange rate ${JSON.stringify(rate)}`);
  const value = new Exact(rate);
  if (value.lte(0)) throw new Error(`Invalid exchange rate ${JSON.stringify(rate)}`);
  return value;
}

/**
 * Consumer minor units → remittance minor units: amount / rate, rounded half-up to the remittance
 * currency's minor unit (a negative amount is rounded on its magnitude: −0.5 cent → −1 cent).
 */
export function convertMinor(consumerMinor: number, consumerCurrency: string, rate: string, remittanceCurrency: string): number {
  const major = new Exact(consumerMinor).dividedBy(Exact.pow(10, currencyDigits(consumerCurrency)));
  const converted = major.dividedBy(parseRate(rate)).times(Exact.pow(10, currencyDigits(remittanceCurrency)));
  return toSafeInteger(converted.toDecimalPlaces(0, Decimal.ROUND_HALF_UP));
}

/** The fee on one payment of `grossMinor` (> 0): percent rounded half-up, plus the fixed part; never more than the payment. */
export function paymentFee(grossMinor: number, rule: FeeRule): number {
  if (grossMinor <= 0) return 0;
  const percentPart = new Exact(grossMinor).times(rule.percent).dividedBy(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
  return Math.min(grossMinor, toSafeInteger(percentPart.plus(rule.fixedMinor)));
}

/**
 * The lines and totals of one remittance in `remittanceCurrency`: payments first, then refunds, each in
 * the order they happened. Refunds keep the fee of their payment (as most merchants of record do).
 */
export function calculateRemittance(remittanceCurrency: string, payments: SettlementItem[], refunds: SettlementItem[], fee: FeeRule): RemittanceCalculation {
  const byTime = (a: SettlementItem, b: SettlementItem) =>
    a.occurredAt.getTime() - b.occurredAt.getTime() || (a.refundId ?? a.orderId).localeCompare(b.refundId ?? b.orderId);

  const lines: RemittanceLineDraft[] = [];
  for (const item of [...payments].sort(byTime)) {
    const grossMinor = convertMinor(item.consumerMinor, item.consumerCurrency, item.rate, remittanceCurrency);
    const feeMinor = paymentFee(grossMinor, fee);
    lines.push({ ...line(item, RemittanceLineType.Payment), consumerMinor: item.consumerMinor, grossMinor, feeMinor, remittedMinor: grossMinor - feeMinor });
  }
  for (const item of [...refunds].sort(byTime)) {
    if (!item.refundId) throw new Error(`Refund line of order ${item.orderId} has no refund id`);
    const grossMinor = 0 - convertMinor(item.consumerMinor, item.consumerCurrency, item.rate, remittanceCurrency);
    lines.push({ ...line(item, RemittanceLineType.Refund), consumerMinor: 0 - item.consumerMinor, grossMinor, feeMinor: 0, remittedMinor: grossMinor });
  }
  return { lines, totals: totalsOf(lines) };
}

/** Sums of the rounded lines (so that totals and lines can never disagree by a cent). */
export function totalsOf(lines: RemittanceLineDraft[]): RemittanceTotals {
  const sum = (pick: (line: RemittanceLineDraft) => number) => toSafeInteger(lines.reduce((total, l) => total.plus(pick(l)), new Exact(0)));
  const payments = lines.filter((l) => l.lineType === RemittanceLineType.Payment);
  const refunds = lines.filter((l) => l.lineType === RemittanceLineType.Refund);
  const grossMinor = sum((l) => (l.lineType === RemittanceLineType.Payment ? l.grossMinor : 0));
  const refundsMinor = 0 - sum((l) => (l.lineType === RemittanceLineType.Refund ? l.grossMinor : 0));
  const feesMinor = sum((l) => l.feeMinor);
  const remittedMinor = sum((l) => l.remittedMinor);
  if (remittedMinor !== grossMinor - refundsMinor - feesMinor) throw new Error('Remittance lines do not add up');
  return { grossMinor, refundsMinor, feesMinor, remittedMinor, lineCount: payments.length + refunds.length };
}

function line(item: SettlementItem, lineType: RemittanceLineType) {
  return {
    lineType,
    orderId: item.orderId,
    refundId: lineType === RemittanceLineType.Refund ? item.refundId : null,
    merchantReference: item.merchantReference,
    occurredAt: item.occurredAt,
    consumerCurrency: item.consumerCurrency,
    rate: item.rate,
    rateOfferId: item.rateOfferId,
  };
}

function toSafeInteger(value: Decimal): number {
  const number = value.toNumber();
  if (!Number.isSafeInteger(number)) throw new Error(`Amount ${value.toFixed()} is beyond the exact integer range`);
  return number;
}
