import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { MerchantService } from '../auth/merchant.service';
import { Principal } from '../auth/principal';
import { parseRfc3339 } from '../checkout/signed/request-timestamp';
import { Clock } from '../common/clock/clock';
import { TransactionRunner } from '../common/database/transaction-runner';
import { DomainError, invalidRequest } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-codes';
import { FieldErrorCode } from '../common/errors/field-error';
import { NotificationListQuery } from './dto/notification-requests.dto';
import { NotificationDetailView, NotificationListView, NotificationSummaryView } from './dto/notification-views.dto';
import { NotificationAttempt } from './notification-attempt.entity';
import { NotificationEvent } from './notification-event.entity';
import { NotificationOutbox } from './notification-outbox.service';
import { NotificationState, NotificationType } from './notification-types';

const DEFAULT_PAGE = 20;
/** Redelivery of a time range touches this many events per statement. */
const REDELIVERY_BATCH = 500;

/**
 * The merchant's view of its notifications (Basic auth, like the Session interface): lists, one event
 * with its attempts, redelivery, and a TEST event. Another merchant's event is "not found"; admins read
 * every merchant's, and only merchant users write (the guard's `write` access).
 */
@Injectable()
export class NotificationsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly outbox: NotificationOutbox,
    private readonly merchants: MerchantService,
    private readonly clock: Clock,
  ) {}

  /** Newest first; `after` (an EventId of the previous page) continues below it on (created_at, id). */
  async list(principal: Principal, query: NotificationListQuery): Promise<NotificationListView> {
    const limit = query.limit ?? DEFAULT_PAGE;
    const select = this.dataSource.getRepository(NotificationEvent).createQueryBuilder('e');
    if (principal.merchantId) select.andWhere('e.merchant_id = :merchantId', { merchantId: principal.merchantId });
    if (query.from) select.andWhere('e.created_at >= :from', { from: parseRfc3339(query.from) });
    if (query.to) select.andWhere('e.created_at < :to', { to: parseRfc3339(query.to) });
    if (query.state) select.andWhere('e.state = :state', { state: query.state });
    if (query.type) select.andWhere('e.type = :type', { type: query.type });
    if (query.after) {
      const cursor = await this.find(principal, query.after.toLowerCase());
      if (!cursor) throw invalidRequest([{ Field: 'after', Code: FieldErrorCode.Invalid, Message: 'after names no notification of this merchant' }]);
      select.andWhere('(e.created_at < :cursorAt OR (e.created_at = :cursorAt AND e.id < :cursorId))', { cursorAt: cursor.createdAt, cursorId: cursor.id });
    }
    const rows = await select.orderBy('e.created_at', 'DESC').addOrderBy('e.id', 'DESC').limit(limit + 1).getMany();
    const page = rows.slice(0, limit);
    return { Notifications: page.map(summaryView), ...(rows.length > limit ? { Next: page[page.length - 1].id } : {}) };
  }

  async get(principal: Principal, id: string): Promise<NotificationDetailView> {
    const event = await this.require(principal, id);
    const attempts = await this.dataSource.getRepository(NotificationAttempt).find({ where: { eventId: event.id }, order: { attempt: 'ASC' } });
    return detailView(event, attempts);
  }

  /**
   * Puts one event back in the queue with a fresh retry schedule, whatever its state: it is sent again
   * (receivers deduplicate by EventId). An attempt in flight is left alone: it is the redelivery.
   */
  async redeliver(principal: Principal, id: string): Promise<NotificationDetailView> {
    const event = await this.require(principal, id);
    await this.requeue([event.id]);
    return this.get(principal, id);
  }

  /** Every event of the merchant created in [From, To), in batches; returns how many were requeued. */
  async redeliverRange(principal: Principal, fromText: string, toText: string): Promise<number> {
    const from = parseRfc3339(fromText)!;
    const to = parseRfc3339(toText)!;
    if (from >= to) throw invalidRequest([{ Field: 'To', Code: FieldErrorCode.Invalid, Message: 'To must be after From' }]);
    let requeued = 0;
    let cursor: { at: Date; id: string } | null = null;
    for (;;) {
      const select = this.dataSource
        .getRepository(NotificationEvent)
        .createQueryBuilder('e')
        .select(['e.id', 'e.createdAt'])
        .where('e.merchant_id = :merchantId AND e.created_at >= :from AND e.created_at < :to', { merchantId: principal.merchantId, from, to });
      if (cursor) select.andWhere('(e.created_at > :cursorAt OR (e.created_at = :cursorAt AND e.id > :cursorId))', { cursorAt: cursor.at, cursorId: cursor.id });
      const rows = await select.orderBy('e.created_at', 'ASC').addOrderBy('e.id', 'ASC').limit(REDELIVERY_BATCH).getMany();
      if (rows.length === 0) return requeued;
      requeued += await this.requeue(rows.map((row) => row.id));
      const last = rows[rows.length - 1];
      cursor = { at: last.createdAt, id: last.id };
      if (rows.length < REDELIVERY_BATCH) return requeued;
    }
  }

  /** A TEST event to the merchant's notify URL; delivered like any other (GET it to see the attempt). */
  async sendTest(principal: Principal): Promise<NotificationDetailView> {
    const merchant = await this.merchants.findById(principal.merchantId!);
    if (!merchant?.notifyUrl) throw new DomainError(ErrorCode.NotifyUrlMissing);
    const [event] = await this.transactions.run((manager) => this.outbox.record(manager, { testFor: merchant.id }, [NotificationType.Test]));
    return detailView(event, []);
  }

  private async requeue(ids: string[]): Promise<number> {
    const now = this.clock.now();
    const result = await this.transactions.run((manager) =>
      manager
        .createQueryBuilder()
        .update(NotificationEvent)
        .set({ state: NotificationState.Pending, nextAttemptAt: now, retryCount: 0 })
        .where({ id: In(ids) })
        .andWhere('(locked_until IS NULL OR locked_until < :now)', { now })
        .execute(),
    );
    return result.affected ?? 0;
  }

  private find(principal: Principal, id: string): Promise<NotificationEvent | null> {
    const where = principal.merchantId ? { id, merchantId: principal.merchantId } : { id };
    return this.dataSource.getRepository(NotificationEvent).findOneBy(where);
  }

  private async require(principal: Principal, id: string): Promise<NotificationEvent> {
    const event = await this.find(principal, id);
    if (!event) throw new DomainError(ErrorCode.NotificationNotFound);
    return event;
  }
}

function summaryView(event: NotificationEvent): NotificationSummaryView {
  return {
    EventId: event.id,
    EventType: event.type,
    MerchantId: event.merchantId,
    ResourceType: event.resourceType,
    ResourceId: event.resourceId,
    Sequence: event.sequence,
    State: event.state,
    Attempts: event.attempts,
    ...(event.lastStatus !== null ? { LastStatus: event.lastStatus } : {}),
    ...(event.lastError !== null ? { LastError: event.lastError } : {}),
    ...(event.state === NotificationState.Pending ? { NextAttemptAt: event.nextAttemptAt.toISOString() } : {}),
    ...(event.deliveredAt ? { DeliveredAt: event.deliveredAt.toISOString() } : {}),
    CreatedAt: event.createdAt.toISOString(),
  };
}

function detailView(event: NotificationEvent, attempts: NotificationAttempt[]): NotificationDetailView {
  return {
    ...summaryView(event),
    ...(event.targetUrl ? { NotifyUrl: event.targetUrl } : {}),
    Payload: JSON.parse(event.payload) as Record<string, unknown>,
    AttemptLog: attempts.map((attempt) => ({
      Attempt: attempt.attempt,
      StartedAt: attempt.startedAt.toISOString(),
      DurationMs: attempt.durationMs,
      ...(attempt.statusCode !== null ? { StatusCode: attempt.statusCode } : {}),
      ...(attempt.error !== null ? { Error: attempt.error } : {}),
    })),
  };
}
