import { RemittanceLine } from '../../remittance/remittance-line.entity';
import { Remittance } from '../../remittance/remittance.entity';
import { money } from '../common/money.model';
import { RemittanceLineModel, RemittanceModel } from './remittance.model';

export function toRemittanceModel(remittance: Remittance): RemittanceModel {
  const amount = (minor: number) => money(minor, remittance.currency);
  return {
    id: remittance.id,
    merchantId: remittance.merchantId,
    currency: remittance.currency,
    periodFrom: remittance.periodFrom,
    periodTo: remittance.periodTo,
    gross: amount(remittance.grossMinor),
    fees: amount(remittance.feesMinor),
    refunds: amount(remittance.refundsMinor),
    remitted: amount(remittance.remittedMinor),
    lineCount: remittance.lineCount,
    createdAt: remittance.createdAt,
  };
}

/** A line as the report shows it; its amounts other than the consumer's are in the remittance currency. */
export function toRemittanceLineModel(line: RemittanceLine, remittanceCurrency: string): RemittanceLineModel {
  const amount = (minor: number) => money(minor, remittanceCurrency);
  return {
    lineType: line.lineType,
    orderId: line.orderId,
    refundId: line.refundId,
    merchantReference: line.merchantReference,
    occurredAt: line.occurredAt,
    consumerAmount: money(line.consumerMinor, line.consumerCurrency),
    rate: line.rate,
    rateOfferId: line.rateOfferId,
    gross: amount(line.grossMinor),
    fee: amount(line.feeMinor),
    remitted: amount(line.remittedMinor),
  };
}
