import { formatMinorUnits } from '../common/money/money';
import { RemittanceLineType } from './remittance-calculator';
import { RemittanceLine } from './remittance-line.entity';
import { Remittance } from './remittance.entity';
import { Report } from './report.entity';

/** A report in GET /reports. Amounts are decimal strings in the currency's own decimals, like the rest of the Checkout interface. */
export interface ReportSummaryView {
  ReportId: string;
  RemittanceId: string;
  Currency: string;
  From: string;
  To: string;
  CreatedAt: string;
  RemittedAmount: string;
}

/** One line of a downloaded report (the CSV has the same columns, in this order). */
export interface ReportLineView {
  LineType: RemittanceLineType;
  OrderId: string;
  MerchantReference: string;
  RefundId?: string;
  /** When the order was processed or the refund succeeded. */
  Date: string;
  /** Negative on a refund. */
  ConsumerAmount: string;
  ConsumerCurrency: string;
  /** Units of ConsumerCurrency per one unit of RemittanceCurrency. */
  Rate: string;
  RateOfferId?: string;
  /** ConsumerAmount / Rate, rounded half-up to the remittance currency's minor unit. */
  GrossAmount: string;
  Fee: string;
  /** GrossAmount − Fee. */
  RemittedAmount: string;
  RemittanceCurrency: string;
}

export interface ReportTotalsView {
  Payments: number;
  Refunds: number;
  GrossAmount: string;
  RefundedAmount: string;
  Fees: string;
  /** GrossAmount − RefundedAmount − Fees = Σ Lines[].RemittedAmount. */
  RemittedAmount: string;
}

export interface ReportDocumentView extends ReportSummaryView {
  Totals: ReportTotalsView;
  Lines: ReportLineView[];
}

export const REPORT_COLUMNS: readonly (keyof ReportLineView)[] = [
  'LineType', 'OrderId', 'MerchantReference', 'RefundId', 'Date', 'ConsumerAmount', 'ConsumerCurrency', 'Rate', 'RateOfferId',
  'GrossAmount', 'Fee', 'RemittedAmount', 'RemittanceCurrency',
];

export function reportSummaryView(report: Report, remittance: Remittance): ReportSummaryView {
  return {
    ReportId: report.id,
    RemittanceId: report.remittanceId,
    Currency: report.currency,
    From: report.periodFrom.toISOString(),
    To: report.periodTo.toISOString(),
    CreatedAt: report.createdAt.toISOString(),
    RemittedAmount: formatMinorUnits(remittance.remittedMinor, remittance.currency),
  };
}

export function reportLineView(line: RemittanceLine, remittanceCurrency: string): ReportLineView {
  const money = (minor: number) => formatMinorUnits(minor, remittanceCurrency);
  return {
    LineType: line.lineType,
    OrderId: line.orderId,
    MerchantReference: line.merchantReference,
    ...(line.refundId ? { RefundId: line.refundId } : {}),
    Date: line.occurredAt.toISOString(),
    ConsumerAmount: formatMinorUnits(line.consumerMinor, line.consumerCurrency),
    ConsumerCurrency: line.consumerCurrency,
    Rate: line.rate,
    ...(line.rateOfferId ? { RateOfferId: line.rateOfferId } : {}),
    GrossAmount: money(line.grossMinor),
    Fee: money(line.feeMinor),
    RemittedAmount: money(line.remittedMinor),
    RemittanceCurrency: remittanceCurrency,
  };
}

export function reportDocumentView(report: Report, remittance: Remittance, lines: RemittanceLine[]): ReportDocumentView {
  const money = (minor: number) => formatMinorUnits(minor, remittance.currency);
  return {
    ...reportSummaryView(report, remittance),
    Totals: {
      Payments: lines.filter((line) => line.lineType === RemittanceLineType.Payment).length,
      Refunds: lines.filter((line) => line.lineType === RemittanceLineType.Refund).length,
      GrossAmount: money(remittance.grossMinor),
      RefundedAmount: money(remittance.refundsMinor),
      Fees: money(remittance.feesMinor),
      RemittedAmount: money(remittance.remittedMinor),
    },
    Lines: lines.map((line) => reportLineView(line, remittance.currency)),
  };
}

/** What `cli remittance run` prints for each remittance made. */
export interface RemittanceRunView {
  RemittanceId: string;
  ReportId: string;
  MerchantId: string;
  Currency: string;
  From: string;
  To: string;
  Lines: number;
  GrossAmount: string;
  RefundedAmount: string;
  Fees: string;
  RemittedAmount: string;
}

export function remittanceRunView({ remittance, report }: { remittance: Remittance; report: Report }): RemittanceRunView {
  const money = (minor: number) => formatMinorUnits(minor, remittance.currency);
  return {
    RemittanceId: remittance.id,
    ReportId: report.id,
    MerchantId: remittance.merchantId,
    Currency: remittance.currency,
    From: remittance.periodFrom.toISOString(),
    To: remittance.periodTo.toISOString(),
    Lines: remittance.lineCount,
    GrossAmount: money(remittance.grossMinor),
    RefundedAmount: money(remittance.refundsMinor),
    Fees: money(remittance.feesMinor),
    RemittedAmount: money(remittance.remittedMinor),
  };
}
