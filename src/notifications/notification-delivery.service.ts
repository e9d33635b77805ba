import { BeforeApplicationShutdown, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { MerchantService } from '../auth/merchant.service';
import { SigningSecretService } from '../auth/signing-secret.service';
import { Clock } from '../common/clock/clock';
import { AppConfig } from '../common/config/app-config';
import { TransactionRunner } from '../common/database/transaction-runner';
import { retryDelay } from './delivery-schedule';
import { NotificationAttempt } from './notification-attempt.entity';
import { NotificationEvent } from './notification-event.entity';
import { signatureHeader } from './notification-signer';
import { NotificationState } from './notification-types';
import { DeliveryError, postWebhook } from './webhook-sender';

/**
 * How long a claimed event stays with its instance. Above the 10 s time-out with room for the database
 * writes around it: an event is never sent twice at once unless an instance stalls for this long.
 */
export const DELIVERY_LEASE_MS = 60_000;
/** Events looked at per round, and sent at once per instance. */
const BATCH = 50;
const CONCURRENCY = 8;
/** A run starts no new round after this, so that a shutdown or the next tick never waits long. */
const RUN_BUDGET_MS = 20_000;

/** A due event as read for a claim. */
type Candidate = Pick<NotificationEvent, 'id' | 'merchantId' | 'type' | 'payload' | 'targetUrl' | 'attempts' | 'retryCount'>;

type Outcome = 'delivered' | 'retry' | 'failed' | 'no-target' | 'interrupted' | 'lost';

/**
 * Sends the outbox's events. Each event is claimed with one conditional UPDATE (a lease: locked_until,
 * locked_by, attempts + 1), so on any number of instances one attempt of an event runs at a time; an
 * instance that dies mid-delivery leaves its lease, which expires after DELIVERY_LEASE_MS, and the event
 * is claimed again. Per resource, an event is only due when no earlier event of the same resource is
 * still Pending: a receiver that fails and recovers gets every event, in Sequence order per resource.
 */
@Injectable()
export class NotificationDeliveryService implements OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger('Notifications');
  /** Who holds a lease: distinct per instance, even several in one process (tests). */
  readonly holder = `${hostname()}/${process.pid}/${randomBytes(4).toString('hex')}`.slice(-100);
  private readonly shutdown = new AbortController();
  private readonly runs = new Set<Promise<number>>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly merchants: MerchantService,
    private readonly signingSecrets: SigningSecretService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /**
   * Sends what is due, round after round while there is some (the next event of a resource becomes due
   * once the one before it is delivered). Returns how many events were delivered.
   */
  deliverDue(): Promise<number> {
    if (this.shutdown.signal.aborted) return Promise.resolve(0);
    const run = this.run();
    this.runs.add(run);
    return run.finally(() => this.runs.delete(run));
  }

  /** First on shutdown: abort the attempts in flight (each records itself as interrupted) … */
  onModuleDestroy(): void {
    this.shutdown.abort();
  }

  /** … then wait for them, before the database closes (onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.runs]);
  }

  private async run(): Promise<number> {
    const started = performance.now();
    const context = { urls: new Map<string, Promise<string | null>>(), secrets: new Map<string, Promise<string[]>>() };
    let delivered = 0;
    while (!this.shutdown.signal.aborted && performance.now() - started < RUN_BUDGET_MS) {
      const candidates = await this.dueCandidates();
      if (candidates.length === 0) break;
      const outcomes = await mapConcurrently(candidates, CONCURRENCY, (candidate) => this.attempt(candidate, context));
      delivered += outcomes.filter((outcome) => outcome === 'delivered').length;
      // Nothing claimed (others hold them) or nothing delivered: the next round would find the same.
      if (!outcomes.includes('delivered')) break;
    }
    return delivered;
  }

  /** Pending, due, not leased, and the first Pending one of its resource. */
  private dueCandidates(): Promise<Candidate[]> {
    const now = this.clock.now();
    return this.dataSource
      .getRepository(NotificationEvent)
      .createQueryBuilder('e')
      .select(['e.id', 'e.merchantId', 'e.type', 'e.payload', 'e.targetUrl', 'e.attempts', 'e.retryCount'])
      .where('e.state = :pending AND e.next_attempt_at <= :now AND (e.locked_until IS NULL OR e.locked_until < :now)', { pending: NotificationState.Pending, now })
      .andWhere(
        'NOT EXISTS (SELECT 1 FROM notification_event earlier WHERE earlier.resource_type = e.resource_type AND earlier.resource_id = e.resource_id ' +
          'AND earlier.sequence < e.sequence AND earlier.state = :pending)',
      )
      .orderBy('e.next_attempt_at', 'ASC')
      .limit(BATCH)
      .getMany();
  }

  private async attempt(candidate: Candidate, context: { urls: Map<string, Promise<string | null>>; secrets: Map<string, Promise<string[]>> }): Promise<Outcome> {
    const claimedAt = this.clock.now();
    const leaseUntil = new Date(claimedAt.getTime() + DELIVERY_LEASE_MS);
    const claim = await this.transactions.write((manager) =>
      manager
        .createQueryBuilder()
        .update(NotificationEvent)
        .set({ lockedUntil: leaseUntil, lockedBy: this.holder, attempts: candidate.attempts + 1 })
        .where('id = :id AND state = :pending AND attempts = :attempts AND next_attempt_at <= :now AND (locked_until IS NULL OR locked_until < :now)', {
          id: candidate.id,
          pending: NotificationState.Pending,
          attempts: candidate.attempts,
          now: claimedAt,
        })
        .execute(),
    );
    if (claim.affected !== 1) return 'lost';
    const attempt = candidate.attempts + 1;
    const lease = { leaseUntil, attempt };
    try {
      const url = candidate.targetUrl ?? (await cached(context.urls, candidate.merchantId, () => this.merchantUrl(candidate.merchantId)));
      if (!url) return await this.finish(candidate, lease, { noTarget: true });
      const secrets = await cached(context.secrets, candidate.merchantId, () => this.signingSecrets.usableSecrets(candidate.merchantId, this.clock.now()));
      const startedAt = this.clock.now();
      const timer = performance.now();
      const signature = signatureHeader(secrets, Math.floor(startedAt.getTime() / 1000), candidate.payload);
      let status: number | null = null;
      let error: DeliveryError | null = null;
      try {
        status = await postWebhook({
          url,
          body: candidate.payload,
          signature,
          allowPrivateTargets: this.config.notifications.allowPrivateTargets,
          signal: this.shutdown.signal,
        });
      } catch (failure) {
        error = failure instanceof DeliveryError ? failure : new DeliveryError(describe(failure));
      }
      const outcome = await this.finish(candidate, lease, { startedAt, durationMs: Math.round(performance.now() - timer), status, error });
      this.log(candidate, url, outcome, status, error);
      return outcome;
    } catch (failure) {
      // The database failed us (or a secret could not be read): the lease expires and the event is tried again.
      this.logger.error(`notification ${candidate.id}: attempt ${attempt} not recorded: ${describe(failure)}`);
      return 'lost';
    }
  }

  /** Records the attempt and moves the event on, both only if this instance still holds the lease. */
  private finish(
    candidate: Candidate,
    lease: { leaseUntil: Date; attempt: number },
    result: { noTarget: true } | { startedAt: Date; durationMs: number; status: number | null; error: DeliveryError | null },
  ): Promise<Outcome> {
    const now = this.clock.now();
    const released = { lockedUntil: null, lockedBy: null };
    let outcome: Outcome;
    let changes: Partial<NotificationEvent>;
    if ('noTarget' in result) {
      // Not an attempt: nothing was sent. A redelivery after the merchant sets a URL sends it.
      outcome = 'no-target';
      changes = { ...released, state: NotificationState.NoTarget, attempts: candidate.attempts, lastError: 'no notify URL' };
    } else if (result.status !== null && result.status >= 200 && result.status < 300) {
      outcome = 'delivered';
      changes = { ...released, state: NotificationState.Delivered, deliveredAt: now, lastStatus: result.status, lastError: null };
    } else if (result.error?.interrupted) {
      // The receiver did nothing wrong: due again at once, for another instance, without a step of backoff.
      outcome = 'interrupted';
      changes = { ...released, nextAttemptAt: now, lastStatus: null, lastError: result.error.message };
    } else {
      const retryCount = candidate.retryCount + 1;
      const delay = retryDelay(this.config.notifications.retry, retryCount);
      const lastError = result.error?.message ?? (result.status !== null && result.status >= 300 && result.status < 400 ? 'redirect not followed' : null);
      outcome = delay === null ? 'failed' : 'retry';
      changes = {
        ...released,
        retryCount,
        lastStatus: result.status,
        lastError,
        ...(delay === null ? { state: NotificationState.Failed } : { nextAttemptAt: new Date(now.getTime() + delay) }),
      };
    }
    return this.transactions.run(async (manager) => {
      if (!('noTarget' in result)) {
        await manager
          .createQueryBuilder()
          .insert()
          .into(NotificationAttempt)
          .values({
            eventId: candidate.id,
            attempt: lease.attempt,
            startedAt: result.startedAt,
            durationMs: result.durationMs,
            statusCode: result.status,
            error: result.error?.message.slice(0, 500) ?? null,
          })
          .updateEntity(false)
          .execute();
      }
      const updated = await manager
        .createQueryBuilder()
        .update(NotificationEvent)
        .set(changes)
        .where('id = :id AND locked_by = :holder AND locked_until = :leaseUntil', { id: candidate.id, holder: this.holder, leaseUntil: lease.leaseUntil })
        .execute();
      if (updated.affected !== 1) {
        this.logger.warn(`notification ${candidate.id}: attempt ${lease.attempt} outlived its lease; another instance took the event over`);
        return 'lost';
      }
      return outcome;
    });
  }

  private async merchantUrl(merchantId: string): Promise<string | null> {
    return (await this.merchants.findById(merchantId))?.notifyUrl ?? null;
  }

  /** One line per attempt, naming the receiver's origin only: a path or query may carry the merchant's token. */
  private log(candidate: Candidate, url: string, outcome: Outcome, status: number | null, error: DeliveryError | null): void {
    const what = `notification ${candidate.id} (${candidate.type}) to ${new URL(url).origin}`;
    const answer = status !== null ? `HTTP ${status}` : (error?.message ?? 'no answer');
    if (outcome === 'delivered') this.logger.debug(`${what}: delivered (${answer})`);
    else if (outcome === 'failed') this.logger.warn(`${what}: ${answer}; given up after the last retry`);
    else this.logger.warn(`${what}: ${answer}; ${outcome === 'retry' ? 'retried later' : outcome}`);
  }
}

function cached<T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let value = cache.get(key);
  if (!value) cache.set(key, (value = load()));
  return value;
}

async function mapConcurrently<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 300);
}
