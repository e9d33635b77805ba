import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintToNumber } from '../common/database/columns';

export enum RefundState {
  InProgress = 'InProgress',
  Succeeded = 'Succeeded',
  Failed = 'Failed',
}

/** A refund of part or all of a Processed order; its state is independent of the order's. */
@Entity('order_refund')
@Index('UQ_refund_order_reference', ['orderId', 'referenceId'], { unique: true })
@Index('IDX_refund_state_created', ['state', 'createdAt'])
@Index('IDX_refund_state_remittance', ['state', 'remittanceId'])
export class Refund {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'order_id', type: 'varchar', length: 36 })
  orderId: string;

  @Column({ name: 'merchant_id', type: 'varchar', length: 36 })
  merchantId: string;

  /** The merchant's idempotency key for this refund, unique per order. */
  @Column({ name: 'reference_id', type: 'varchar', length: 200 })
  referenceId: string;

  @Column({ name: 'amount_minor', type: 'bigint', transformer: bigintToNumber })
  amountMinor: number;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 20 })
  state: RefundState;

  @Column({ name: 'failure_reason', type: 'varchar', length: 200, nullable: true })
  failureReason: string | null;

  @CreateDateColumn({ name: 'created_at', precision: 6 })
  createdAt: Date;

  @Column({ name: 'completed_at', type: 'datetime', precision: 3, nullable: true })
  completedAt: Date | null;

  /** The remittance that netted this Succeeded refund; set once, by the run's conditional claim (src/remittance). */
  @Column({ name: 'remittance_id', type: 'varchar', length: 36, nullable: true })
  remittanceId: string | null;
}
