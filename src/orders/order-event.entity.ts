import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** One transition of one order, written in the transaction that made it; `sequence` = the order's new version. */
@Entity('order_event')
@Index('UQ_order_event_sequence', ['orderId', 'sequence'], { unique: true })
export class OrderEvent {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'order_id', type: 'varchar', length: 36 })
  orderId: string;

  @Column({ name: 'merchant_id', type: 'varchar', length: 36 })
  merchantId: string;

  @Column({ type: 'integer' })
  sequence: number;

  @Column({ name: 'from_state', type: 'varchar', length: 20, nullable: true })
  fromState: string | null;

  @Column({ name: 'to_state', type: 'varchar', length: 20 })
  toState: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  reason: string | null;

  @CreateDateColumn({ name: 'created_at', precision: 6 })
  createdAt: Date;
}
