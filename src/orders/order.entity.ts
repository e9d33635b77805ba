import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintToNumber, jsonText } from '../common/database/columns';
import { OrderState } from './order-state';

export type OrderSource = 'checkout' | 'session';

/** What the merchant sent about the purchase, kept for query and reports (never card data). */
export interface OrderDetails {
  Items: { Sku: string; Description?: string; ConsumerPrice: string; Quantity: number }[];
  Charges?: { Name: string; ConsumerPrice: string }[];
  Discounts?: { Name: string; ConsumerPrice: string }[];
  Shipping?: { ConsumerPrice: string; ConsumerTaxes?: string; ConsumerDuty?: string };
  Consumer?: Record<string, string>;
  ViaAgent: boolean;
  AcceptLiability?: boolean;
  OpenContract?: boolean;
  Notify?: string;
  Return?: string;
}

/** A pending step the shopper must take: a redirect approval, a 3-D Secure challenge, or a bank transfer. */
export type OrderAction = { Redirect: string } | { Challenge: string } | { Display: { BankDetails: Record<string, string> } };

/**
 * An order: money the shopper pays the merchant of record. Every state change goes through
 * OrderService.transition (optimistic `version` guard + an order_event row).
 */
@Entity('payment_order')
@Index('UQ_order_merchant_reference', ['merchantId', 'source', 'referenceId'], { unique: true })
@Index('UQ_order_session', ['sessionId'], { unique: true })
@Index('IDX_order_state_expiry', ['state', 'expiresAt'])
@Index('IDX_order_merchant_created', ['merchantId', 'createdAt'])
@Index('IDX_order_state_remittance', ['state', 'remittanceId'])
export class Order {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'merchant_id', type: 'varchar', length: 36 })
  merchantId: string;

  @Column({ type: 'varchar', length: 10 })
  source: OrderSource;

  /** Checkout ReferenceId, or the session's MerchantReference. */
  @Column({ name: 'reference_id', type: 'varchar', length: 200 })
  referenceId: string;

  @Column({ name: 'session_id', type: 'varchar', length: 36, nullable: true })
  sessionId: string | null;

  @Column({ type: 'varchar', length: 20 })
  state: OrderState;

  /** Bumped by every transition; a transition only applies to the version it read. */
  @Column({ type: 'integer' })
  version: number;

  @Column({ name: 'under_review', type: 'boolean', width: 1, default: false })
  underReview: boolean;

  @Column({ name: 'payment_method', type: 'varchar', length: 30 })
  paymentMethod: string;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  /** ConsumerTotal in minor units of `currency`. */
  @Column({ name: 'total_minor', type: 'bigint', transformer: bigintToNumber })
  totalMinor: number;

  /** Refunds in progress or succeeded; kept ≤ total by a conditional UPDATE, so races cannot over-refund. */
  @Column({ name: 'refunded_minor', type: 'bigint', default: 0, transformer: bigintToNumber })
  refundedMinor: number;

  /** The merchant asked for capture at checkout (false: authorize, capture later within 7 days). */
  @Column({ name: 'capture_requested', type: 'boolean', width: 1 })
  captureRequested: boolean;

  @Column({ name: 'remittance_currency', type: 'varchar', length: 3 })
  remittanceCurrency: string;

  @Column({ name: 'rate_offer_id', type: 'varchar', length: 36, nullable: true })
  rateOfferId: string | null;

  /** Units of `currency` per unit of the remittance currency, as an exact decimal; null until fixed. */
  @Column({ type: 'varchar', length: 40, nullable: true })
  rate: string | null;

  @Column({ name: 'contract_id', type: 'varchar', length: 36, nullable: true })
  contractId: string | null;

  @Column({ name: 'device_fingerprint', type: 'varchar', length: 36, nullable: true })
  deviceFingerprint: string | null;

  @Column({ name: 'card_token', type: 'varchar', length: 40, nullable: true })
  cardToken: string | null;

  @Column({ name: 'card_brand', type: 'varchar', length: 20, nullable: true })
  cardBrand: string | null;

  @Column({ name: 'card_last4', type: 'varchar', length: 4, nullable: true })
  cardLast4: string | null;

  @Column({ type: 'text', transformer: jsonText })
  details: OrderDetails;

  @Column({ type: 'text', nullable: true, transformer: jsonText })
  action: OrderAction | null;

  @Column({ name: 'bank_details', type: 'text', nullable: true, transformer: jsonText })
  bankDetails: Record<string, string> | null;

  /** What identifies "the same request" for ReferenceId replays. */
  @Column({ name: 'request_hash', type: 'varchar', length: 64 })
  requestHash: string;

  @Column({ type: 'integer', default: 1 })
  attempts: number;

  /** Capture deadline of a PaymentAuthorized order (7 days after authorization). */
  @Column({ name: 'expires_at', type: 'datetime', precision: 3, nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'authorized_at', type: 'datetime', precision: 3, nullable: true })
  authorizedAt: Date | null;

  @Column({ name: 'processed_at', type: 'datetime', precision: 3, nullable: true })
  processedAt: Date | null;

  @Column({ name: 'cancelled_at', type: 'datetime', precision: 3, nullable: true })
  cancelledAt: Date | null;

  /** Notifications recorded about this order so far = the last one's Sequence (NotificationOutbox). */
  @Column({ name: 'notify_sequence', type: 'integer', default: 0 })
  notifySequence: number;

  /** The Expiry for which ORDER_CAPTURE_DEADLINE_APPROACHING was recorded (one reminder per authorization). */
  @Column({ name: 'capture_reminder_for', type: 'datetime', precision: 3, nullable: true })
  captureReminderFor: Date | null;

  @CreateDateColumn({ name: 'created_at', precision: 6 })
  createdAt: Date;

  /** The remittance that settled this Processed order; set once, by the run's conditional claim (src/remittance). */
  @Column({ name: 'remittance_id', type: 'varchar', length: 36, nullable: true })
  remittanceId: string | null;
}
