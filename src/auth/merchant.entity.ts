import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A merchant owns sessions, billing profiles, orders and a signing secret (see SigningSecret). */
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

  /** guaranteed: getRates answers 24-hour rate offers; spot: indicative rates, fixed at settlement. */
  @Column({ name: 'rate_mode', type: 'varchar', length: 20, default: 'guaranteed' })
  rateMode: 'guaranteed' | 'spot';

  @CreateDateColumn({ name: 'created_at', precision: 6 })
  createdAt: Date;
}
