import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn, VersionColumn } from 'typeorm';
import { bigintToNumber, jsonText } from '../common/database/columns';
import { SessionState } from './session-state';

/** A line of the session, amounts in integer minor units of the session currency. */
export interface StoredItem {
  name: string;
  amount: number;
  quantity: number;
}

export interface StoredDiscount {
  name: string;
  amount: number;
}

export interface StoredAddress {
  street: string;
  city: string;
  region?: string;
  country: string;
  postcode?: string;
}

export interface StoredShipping {
  shippingAmount: number;
  dutyAmount: number;
  name: string;
  email: string;
  phone: string;
  address: StoredAddress;
}

/**
 * A shopper's attempt to pay. Items, discounts and shipping are value objects owned by the session,
 * never queried on their own, so they are stored as JSON (amounts still integer minor units).
 */
@Entity('payment_session')
@Index('UQ_session_merchant_reference', ['merchantId', 'merchantReference'], { unique: true })
@Index('IDX_session_merchant_created', ['merchantId', 'createdAt'])
export class PaymentSession {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'merchant_id', type: 'varchar', length: 36 })
  merchantId: string;

  @Column({ name: 'merchant_reference', type: 'varchar', length: 255 })
  merchantReference: string;

  @Column({ type: 'varchar', length: 20 })
  state: SessionState;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ name: 'auto_capture', type: 'boolean', width: 1 })
  autoCapture: boolean;

  @Column({ name: 'complete_url', type: 'varchar', length: 2000 })
  completeUrl: string;

  @Column({ name: 'cancel_url', type: 'varchar', length: 2000 })
  cancelUrl: string;

  @Column({ name: 'billing_profile_id', type: 'varchar', length: 36 })
  billingProfileId: string;

  /** The BillingProfileReference sent at the root of the request, echoed back only when it was sent. */
  @Column({ name: 'billing_profile_reference', type: 'varchar', length: 255, nullable: true })
  billingProfileReference: string | null;

  @Column({ name: 'via_agent', type: 'boolean', width: 1 })
  viaAgent: boolean;

  @Column({ name: 'allow_contract', type: 'boolean', width: 1, nullable: true })
  allowContract: boolean | null;

  @Column({ name: 'open_contract', type: 'boolean', width: 1, nullable: true })
  openContract: boolean | null;

  @Column({ type: 'text', transformer: jsonText })
  items: StoredItem[];

  @Column({ type: 'text', nullable: true, transformer: jsonText })
  discounts: StoredDiscount[] | null;

  @Column({ type: 'text', nullable: true, transformer: jsonText })
  shipping: StoredShipping | null;

  @Column({ name: 'tax_amount', type: 'bigint', nullable: true, transformer: bigintToNumber })
  taxAmount: number | null;

  @Column({ name: 'tax_quote_id', type: 'varchar', length: 36, nullable: true })
  taxQuoteId: string | null;

  @Column({ name: 'total_amount', type: 'bigint', transformer: bigintToNumber })
  totalAmount: number;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3 })
  expiresAt: Date;

  /** Set while an update runs, so that an overlapping update is refused (DUPLICATE_REQUEST). */
  @Column({ name: 'update_lock_until', type: 'datetime', precision: 3, nullable: true })
  updateLockUntil: Date | null;

  @VersionColumn()
  version: number;

  @CreateDateColumn({ name: 'created_at', precision: 6 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', precision: 6 })
  updatedAt: Date;
}
