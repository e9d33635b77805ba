import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A merchant's shared HMAC secret for the Checkout interface, sealed with the secrets key (never stored
 * in clear). The newest one signs; an older one keeps verifying until `retiresAt` (rotation overlap).
 * Each secret belongs to one environment, so a sandbox secret never verifies in production.
 */
@Entity('merchant_signing_secret')
@Index('IDX_signing_secret_merchant', ['merchantId', 'createdAt'])
export class SigningSecret {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'merchant_id', type: 'varchar', length: 36 })
  merchantId: string;

  @Column({ name: 'secret_sealed', type: 'varchar', length: 255 })
  secretSealed: string;

  /** The APP_ENV the secret was issued for; only that environment uses it. */
  @Column({ type: 'varchar', length: 20 })
  environment: 'sandbox' | 'production';

  /** null while current; set when a newer secret replaces it. */
  @Column({ name: 'retires_at', type: 'datetime', precision: 3, nullable: true })
  retiresAt: Date | null;

  @CreateDateColumn({ name: 'created_at', precision: 6 })
  createdAt: Date;
}
