import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** An imported reference rate (units of `currency` per one unit of `base`); replaces the shipped table. */
@Entity('reference_rate')
export class ReferenceRate {
  @PrimaryColumn({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 3 })
  base: string;

  /** Exact decimal as text: never a binary float. */
  @Column({ type: 'varchar', length: 40 })
  rate: string;

  @Column({ name: 'as_of', type: 'varchar', length: 10 })
  asOf: string;
}

/** A guaranteed rate: `rate` units of `currency` per unit of the remittance currency, until `expiresAt`. */
@Entity('rate_offer')
@Index('IDX_rate_offer_remittance_expiry', ['remittanceCurrency', 'expiresAt'])
export class RateOffer {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'remittance_currency', type: 'varchar', length: 3 })
  remittanceCurrency: string;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 40 })
  rate: string;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3 })
  expiresAt: Date;

  @CreateDateColumn({ name: 'created_at', precision: 6 })
  createdAt: Date;
}
