import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * The simulated processor's card vault: a token stands for a card. No number, code or expiry is kept;
 * `sandboxBehaviour` is what the test card asked for (approve, decline …), the only thing a later
 * contract charge needs to know.
 */
@Entity('card_token')
export class CardTokenRecord {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  token: string;

  @Column({ name: 'merchant_id', type: 'varchar', length: 36 })
  merchantId: string;

  @Column({ type: 'varchar', length: 20 })
  brand: string;

  @Column({ type: 'varchar', length: 4 })
  last4: string;

  @Column({ name: 'sandbox_behaviour', type: 'varchar', length: 30 })
  sandboxBehaviour: string;

  @CreateDateColumn({ name: 'created_at', precision: 6 })
  createdAt: Date;
}
