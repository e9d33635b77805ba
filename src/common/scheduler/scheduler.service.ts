import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { JobLeaseStore } from './job-lease.store';

export interface ScheduledJob {
  /** Unique in the service (the job_lease key), at most 100 characters: "session-expiry". */
  name: string;
  /** A run starts at most once per interval, on one instance. */
  intervalSeconds: number;
  /**
   * How long a run may last before the other instances assume its instance died and take the job over.
   * Keep it above the longest run. Default 300.
   */
  leaseSeconds?: number;
  /** The work, given the clock's time at the claim; may return how many rows it handled (logged). */
  run: (now: Date) => Promise<void | number>;
}

export interface JobOutcome {
  name: string;
  processed?: number;
  /** The error's message when the run threw (also stored in job_lease.last_error). */
  error?: string;
}

const DEFAULT_LEASE_SECONDS = 300;

/**
 * Runs each registered job once per interval across all instances. Every instance ticks; a due job is
 * claimed with one conditional UPDATE of its job_lease row, so exactly one instance runs each period.
 * A failed run is retried next period; a lease left by a dead instance expires and is taken over.
 */
@Injectable()
export class Scheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Scheduler');
  private readonly jobs = new Map<string, ScheduledJob>();
  /** Jobs this instance is running: a long run must not be claimed again by its own instance. */
  private readonly running = new Set<string>();
  private readonly ticks = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Who holds a lease: distinct for every instance, even several in one process (tests). */
  readonly holder = `${hostname()}/${process.pid}/${randomBytes(4).toString('hex')}`.slice(-100);

  constructor(
    private readonly leases: JobLeaseStore,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** Call from the owning service's onModuleInit; creates the job's row (due at once) on first use. */
  async register(job: ScheduledJob): Promise<void> {
    if (this.jobs.has(job.name)) throw new Error(`Scheduled job ${job.name} is registered twice`);
    if (job.name.length > 100 || !(job.intervalSeconds > 0)) throw new Error(`Scheduled job ${job.name}: bad name or interval`);
    this.jobs.set(job.name, job);
    await this.leases.ensure(job.name, this.clock.now());
  }

  /** Ticking starts once every module has registered its jobs. */
  onApplicationBootstrap(): void {
    if (!this.config.scheduler.enabled) return;
    this.timer = setInterval(() => {
      this.runDue().catch((error: unknown) => this.logger.error(`tick failed: ${describe(error)}`));
    }, this.config.scheduler.tickMs);
    // Never keeps the process (a test, the command line) alive by itself.
    this.timer.unref();
  }

  /**
   * Before the database closes (TypeORM closes it in onApplicationShutdown): stop ticking, then let
   * the runs in progress finish so that none is cut off half-way.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.ticks]);
  }

  /** One tick: claims and runs every due job, resolving when they are done. Returns what this instance ran. */
  runDue(): Promise<JobOutcome[]> {
    const tick = this.tick();
    this.ticks.add(tick);
    return tick.finally(() => this.ticks.delete(tick));
  }

  private async tick(): Promise<JobOutcome[]> {
    if (this.stopped) return [];
    const now = this.clock.now();
    const due = await this.leases.due([...this.jobs.keys()], now);
    const runs: Promise<JobOutcome | null>[] = [];
    for (const name of due) {
      // Checked and marked synchronously, so two ticks of this instance cannot both start it.
      if (this.stopped || this.running.has(name)) continue;
      this.running.add(name);
      runs.push(this.claimAndRun(this.jobs.get(name)!, now).finally(() => this.running.delete(name)));
    }
    return (await Promise.all(runs)).filter((outcome): outcome is JobOutcome => outcome !== null);
  }

  private async claimAndRun(job: ScheduledJob, now: Date): Promise<JobOutcome | null> {
    const leaseUntil = new Date(now.getTime() + (job.leaseSeconds ?? DEFAULT_LEASE_SECONDS) * 1000);
    const nextRunAt = new Date(now.getTime() + job.intervalSeconds * 1000);
    const claimed = await this.leases.claim(job.name, this.holder, now, leaseUntil, nextRunAt).catch((error: unknown) => {
      this.logger.error(`${job.name}: could not claim: ${describe(error)}`);
      return false;
    });
    if (!claimed) return null;

    let outcome: JobOutcome;
    try {
      const processed = await job.run(now);
      outcome = typeof processed === 'number' ? { name: job.name, processed } : { name: job.name };
      if (outcome.processed) this.logger.log(`${job.name}: ${outcome.processed} processed`);
    } catch (error) {
      outcome = { name: job.name, error: describe(error) };
      this.logger.error(`${job.name} failed, retried next period: ${describe(error)}`, error instanceof Error ? error.stack : undefined);
    }
    // If the release itself fails, the lease simply expires and a later period runs as usual.
    const released = await this.leases.release(job.name, this.holder, leaseUntil, now, outcome.error ?? null).catch((error: unknown) => {
      this.logger.error(`${job.name}: could not release its lease: ${describe(error)}`);
      return true; // already reported
    });
    if (!released) this.logger.warn(`${job.name} outlived its lease; another instance may have run it too`);
    return outcome;
  }
}

/** The message only (stored in last_error, a TEXT column), cut to a sane length. */
function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 2000);
}
