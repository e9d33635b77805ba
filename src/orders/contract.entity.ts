import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** A stored payment credential (OpenContract): later checkouts with its ContractId charge it without the shopper. */
@Entity('payment_contract')
@Index('IDX_contract_merchant', ['merchantId'])
export class Contract {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'merchant_id', type: 'varchar', length: 36 })
  merchantId: string;

  @Column({ name: 'payment_method', type: 'varchar', length: 30 })
  paymentMethod: string;

  @Column({ name: 'card_token', type: 'varchar', length: 40 })
  cardToken: string;

  @Column({ name: 'card_brand', type: 'varchar', length: 20 })
  cardBrand: string;

  @Column({ name: 'card_last4', type: 'varchar', length: 4 })
  cardLast4: string;

  @Column({ type: 'varchar', length: 10 })
  state: 'Open' | 'Closed';

  /** The order that opened it. */
  @Column({ name: 'order_id', type: 'varchar', length: 36 })
  orderId: string;

  @CreateDateColumn({ name: 'created_at', precision: 6 })
  createdAt: Date;
}
