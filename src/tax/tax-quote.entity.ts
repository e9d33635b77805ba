import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintToNumber } from '../common/database/columns';

/** A stored tax quote: the totals as columns (minor units), the whole answer as the API showed it. */
@Entity('tax_quote')
@Index('IDX_tax_quote_merchant_created', ['merchantId', 'createdAt'])
export class TaxQuote {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'merchant_id', type: 'varchar', length: 36 })
  merchantId: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  reference: string | null;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'bigint', transformer: bigintToNumber })
  amount: number;

  @Column({ name: 'tax_amount', type: 'bigint', transformer: bigintToNumber })
  taxAmount: number;

  /** The response body, so that GET shows exactly what POST answered. */
  @Column({ type: 'text' })
  body: string;

  @CreateDateColumn({ name: 'created_at', precision: 6 })
  createdAt: Date;
}
