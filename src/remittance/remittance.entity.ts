import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintToNumber } from '../common/database/columns';

export enum RemittanceState {
  /** Settled in the ledger: its orders and refunds are claimed and its lines written (the bank payout is outside this service). */
  Completed = 'Completed',
}

/**
 * What one remittance run settled for one merchant in one remittance currency: the sums of its lines,
 * all in minor units of `currency`. remitted = gross − refunds − fees (negative: the merchant owes it).
 */
@Entity('remittance')
@Index('IDX_remittance_merchant_currency_to', ['merchantId', 'currency', 'periodTo'])
export class Remittance {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'merchant_id', type: 'varchar', length: 36 })
  merchantId: string;

  /** The remittance currency. */
  @Column({ type: 'varchar', length: 3 })
  currency: string;

  /** The previous remittance's periodTo (or the earliest line, for the first one). */
  @Column({ name: 'period_from', type: 'datetime', precision: 3 })
  periodFrom: Date;

  /** The run's cut-off: orders processed and refunds completed up to this time. */
  @Column({ name: 'period_to', type: 'datetime', precision: 3 })
  periodTo: Date;

  @Column({ name: 'gross_minor', type: 'bigint', transformer: bigintToNumber })
  grossMinor: number;

  @Column({ name: 'refunds_minor', type: 'bigint', transformer: bigintToNumber })
  refundsMinor: number;

  @Column({ name: 'fees_minor', type: 'bigint', transformer: bigintToNumber })
  feesMinor: number;

  @Column({ name: 'remitted_minor', type: 'bigint', transformer: bigintToNumber })
  remittedMinor: number;

  @Column({ name: 'line_count', type: 'integer' })
  lineCount: number;

  @Column({ type: 'varchar', length: 20 })
  state: RemittanceState;

  @CreateDateColumn({ name: 'created_at', precision: 6 })
  createdAt: Date;
}
