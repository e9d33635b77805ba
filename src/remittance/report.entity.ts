import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** The settlement report of one remittance, listed and downloaded by its merchant (GET /reports). */
@Entity('report')
@Index('UQ_report_remittance', ['remittanceId'], { unique: true })
@Index('IDX_report_merchant_created', ['merchantId', 'createdAt'])
export class Report {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'remittance_id', type: 'varchar', length: 36 })
  remittanceId: string;

  @Column({ name: 'merchant_id', type: 'varchar', length: 36 })
  merchantId: string;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ name: 'period_from', type: 'datetime', precision: 3 })
  periodFrom: Date;

  @Column({ name: 'period_to', type: 'datetime', precision: 3 })
  periodTo: Date;

  @CreateDateColumn({ name: 'created_at', precision: 6 })
  createdAt: Date;
}
