import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A merchant owns sessions, billing profiles, orders and one signing secret per environment. */
@Entity('merchant')
export class Merchant {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ name: 'remittance_currency', type: 'varchar', length: 3 })
  remittanceCurrency: string;

  @Column({ name: 'notify_url', type: 'varchar', length: 2000, nullable: true })
  notifyUrl: string | null;

  /** Shared HMAC secret for the Checkout interface (encrypted at rest by a later change). */
  @Column({ name: 'signing_secret', type: 'varchar', length: 200 })
  signingSecret: string;

  @CreateDateColumn({ name: 'created_at', precision: 6 })
  createdAt: Date;
}
