import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { NotificationState, NotificationType, ResourceType } from './notification-types';

/**
 * The outbox: one row per notification, written in the transaction of the change it reports, then
 * delivered (and retried) by NotificationDeliveryService. `payload` is the exact JSON body sent, so a
 * retry or a redelivery sends the same bytes. A delivery in flight holds a lease (locked_until, locked_by).
 */
@Entity('notification_event')
@Index('UQ_notification_resource_sequence', ['resourceType', 'resourceId', 'sequence'], { unique: true })
@Index('IDX_notification_due', ['state', 'nextAttemptAt'])
@Index('IDX_notification_merchant_created', ['merchantId', 'createdAt'])
export class NotificationEvent {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'merchant_id', type: 'varchar', length: 36 })
  merchantId: string;

  @Column({ name: 'resource_type', type: 'varchar', length: 20 })
  resourceType: ResourceType;

  @Column({ name: 'resource_id', type: 'varchar', length: 36 })
  resourceId: string;

  /** 1, 2, 3 … per resource, in the order the changes were made. */
  @Column({ type: 'integer' })
  sequence: number;

  @Column({ type: 'varchar', length: 50 })
  type: NotificationType;

  /** The JSON body, exactly as POSTed. */
  @Column({ type: 'text' })
  payload: string;

  /** The order's own Notify URL (checkout), fixed when the event was written; null = the merchant's URL at send time. */
  @Column({ name: 'target_url', type: 'varchar', length: 2000, nullable: true })
  targetUrl: string | null;

  @Column({ type: 'varchar', length: 20 })
  state: NotificationState;

  /** Attempts made in all (numbers the notification_attempt rows). */
  @Column({ type: 'integer', default: 0 })
  attempts: number;

  /** Failed attempts since the retry schedule (re)started; a redelivery resets it. */
  @Column({ name: 'retry_count', type: 'integer', default: 0 })
  retryCount: number;

  @Column({ name: 'next_attempt_at', type: 'datetime', precision: 3 })
  nextAttemptAt: Date;

  /** Set while an instance delivers it; past it, the instance is presumed dead and anyone may claim it. */
  @Column({ name: 'locked_until', type: 'datetime', precision: 3, nullable: true })
  lockedUntil: Date | null;

  @Column({ name: 'locked_by', type: 'varchar', length: 100, nullable: true })
  lockedBy: string | null;

  @Column({ name: 'last_status', type: 'integer', nullable: true })
  lastStatus: number | null;

  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError: string | null;

  @Column({ name: 'delivered_at', type: 'datetime', precision: 3, nullable: true })
  deliveredAt: Date | null;

  /** From the service's Clock (not a database default: SQLite's has whole seconds, and lists order by it). */
  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
