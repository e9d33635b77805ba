import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A signed Checkout request that carried a Timestamp, remembered until that Timestamp leaves the replay
 * window (after which the request is refused as expired anyway). The primary key makes a second use fail.
 */
@Entity('signed_request_seen')
@Index('IDX_signed_request_seen_expires', ['expiresAt'])
export class SignedRequestSeen {
  @PrimaryColumn({ name: 'merchant_id', type: 'varchar', length: 36 })
  merchantId: string;

  /** SHA-256 (hex) of the exact request text that was signed. */
  @PrimaryColumn({ name: 'request_hash', type: 'varchar', length: 64 })
  requestHash: string;

  /** Timestamp + CHECKOUT_REPLAY_WINDOW_SECONDS. */
  @Column({ name: 'expires_at', type: 'datetime', precision: 3 })
  expiresAt: Date;

  @CreateDateColumn({ name: 'created_at', precision: 6 })
  createdAt: Date;
}
