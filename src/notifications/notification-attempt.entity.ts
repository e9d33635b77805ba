import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One delivery attempt of a notification: when, how long, and the receiver's status or the error. */
@Entity('notification_attempt')
export class NotificationAttempt {
  @PrimaryColumn({ name: 'event_id', type: 'varchar', length: 36 })
  eventId: string;

  /** 1, 2, 3 … per event (notification_event.attempts at the claim). */
  @PrimaryColumn({ type: 'integer' })
  attempt: number;

  @Column({ name: 'started_at', type: 'datetime', precision: 3 })
  startedAt: Date;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs: number;

  /** The receiver's HTTP status; null when no answer came (time-out, refused, connection error). */
  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode: number | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;
}
