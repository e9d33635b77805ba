import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row per scheduled job, shared by every instance: whoever holds an unexpired lease is running it,
 * and next_run_at says when the next period starts. See Scheduler.
 */
@Entity('job_lease')
export class JobLease {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  name: string;

  /** The instance that claimed the current or last run (Scheduler.holder). */
  @Column({ type: 'varchar', length: 100, nullable: true })
  holder: string | null;

  /** Set while a run is in progress; once past, another instance may assume the holder died. */
  @Column({ name: 'lease_until', type: 'datetime', precision: 3, nullable: true })
  leaseUntil: Date | null;

  @Column({ name: 'next_run_at', type: 'datetime', precision: 3 })
  nextRunAt: Date;

  /** The clock time at which the last finished run started. */
  @Column({ name: 'last_run_at', type: 'datetime', precision: 3, nullable: true })
  lastRunAt: Date | null;

  /** The error of the last run; null when it succeeded. */
  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;
}
