import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintToNumber } from '../../common/database/columns';

/**
 * What the simulated processor did, one row per money operation and idempotency key: a repeated
 * capture or refund finds its row and does nothing again. Tests count these rows.
 */
@Entity('sandbox_ledger')
@Index('UQ_sandbox_ledger_operation_key', ['operation', 'idempotencyKey'], { unique: true })
export class SandboxLedgerEntry {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 20 })
  operation: 'authorize' | 'authenticate' | 'capture' | 'void' | 'refund';

  @Column({ name: 'idempotency_key', type: 'varchar', length: 100 })
  idempotencyKey: string;

  @Column({ name: 'order_id', type: 'varchar', length: 36 })
  orderId: string;

  @Column({ name: 'amount_minor', type: 'bigint', transformer: bigintToNumber })
  amountMinor: number;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 30 })
  outcome: string;

  @CreateDateColumn({ name: 'created_at', precision: 6 })
  createdAt: Date;
}
