import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintToNumber } from '../common/database/columns';
import { RemittanceLineType } from './remittance-calculator';

/**
 * One settled order (Payment) or refund (Refund). Its id is the id of that order or refund, so the
 * primary key itself forbids settling one twice, whatever the claim did.
 */
@Entity('remittance_line')
@Index('UQ_remittance_line_position', ['remittanceId', 'position'], { unique: true })
export class RemittanceLine {
  /** The order's id on a Payment line, the refund's id on a Refund line. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'remittance_id', type: 'varchar', length: 36 })
  remittanceId: string;

  /** Order of the lines in the report (payments, then refunds, each by time). */
  @Column({ type: 'integer' })
  position: number;

  @Column({ name: 'line_type', type: 'varchar', length: 10 })
  lineType: RemittanceLineType;

  @Column({ name: 'order_id', type: 'varchar', length: 36 })
  orderId: string;

  @Column({ name: 'refund_id', type: 'varchar', length: 36, nullable: true })
  refundId: string | null;

  /** The checkout's ReferenceId or the session's MerchantReference. */
  @Column({ name: 'merchant_reference', type: 'varchar', length: 200 })
  merchantReference: string;

  /** When the order was processed or the refund succeeded. */
  @Column({ name: 'occurred_at', type: 'datetime', precision: 3 })
  occurredAt: Date;

  /** Signed minor units of consumerCurrency (a refund is negative). */
  @Column({ name: 'consumer_minor', type: 'bigint', transformer: bigintToNumber })
  consumerMinor: number;

  @Column({ name: 'consumer_currency', type: 'varchar', length: 3 })
  consumerCurrency: string;

  /** Units of consumerCurrency per one unit of the remittance currency, as an exact decimal. */
  @Column({ type: 'varchar', length: 40 })
  rate: string;

  /** The guaranteed offer the checkout used; null when the reference rate was applied. */
  @Column({ name: 'rate_offer_id', type: 'varchar', length: 36, nullable: true })
  rateOfferId: string | null;

  /** Signed minor units of the remittance currency, before the fee. */
  @Column({ name: 'gross_minor', type: 'bigint', transformer: bigintToNumber })
  grossMinor: number;

  @Column({ name: 'fee_minor', type: 'bigint', transformer: bigintToNumber })
  feeMinor: number;

  /** grossMinor − feeMinor. */
  @Column({ name: 'remitted_minor', type: 'bigint', transformer: bigintToNumber })
  remittedMinor: number;
}
