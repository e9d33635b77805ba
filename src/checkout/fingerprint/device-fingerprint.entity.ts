import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** A device seen by the fingerprint script: the GUID a checkout sends as DeviceFingerprint. */
@Entity('device_fingerprint')
@Index('IDX_fingerprint_merchant_created', ['merchantId', 'createdAt'])
export class DeviceFingerprint {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'merchant_id', type: 'varchar', length: 36 })
  merchantId: string;

  /** What the hidden frame reported (user agent, language, IP, screen); null until it loaded. */
  @Column({ type: 'text', nullable: true })
  device: string | null;

  @Column({ name: 'recorded_at', type: 'datetime', precision: 3, nullable: true })
  recordedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', precision: 6 })
  createdAt: Date;
}
