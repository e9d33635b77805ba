import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { orderView, refundView } from '../checkout/orders/order.views';
import { Clock } from '../common/clock/clock';
import { Order } from '../orders/order.entity';
import { Refund } from '../orders/refund.entity';
import { BillingProfile } from '../session/billing-profile.entity';
import { toSessionView } from '../session/session.mapper';
import { PaymentSession } from '../session/session.entity';
import { NotificationEvent } from './notification-event.entity';
import { NotificationState, NotificationType, ResourceType } from './notification-types';

/**
 * For the UPDATE of an order that records `count` events about it: raises its notify_sequence in that
 * same statement (one round trip less than a separate UPDATE on the checkout path).
 */
export function raiseNotifySequence(count: number): () => string {
  if (!Number.isInteger(count) || count < 1) throw new Error(`Bad notification count ${count}`);
  return () => `notify_sequence + ${count}`;
}

/** What a notification is about, as the caller has it at hand inside its transaction. */
export type NotificationSubject =
  /**
   * An order as it stands after the change (its refunds are always none: only Processed orders have
   * refunds, and they never change state again), whose notify_sequence the caller has raised.
   */
  | { order: Order }
  /** A refund as it stands after the change. */
  | { refund: Refund }
  /** A session whose state the caller has just written. */
  | { sessionId: string }
  /** A TEST event for a merchant. */
  | { testFor: string };

interface Resolved {
  merchantId: string;
  resourceType: ResourceType;
  resourceId: string | null;
  view: Record<string, unknown> | null;
  targetUrl: string | null;
  firstSequence: number;
}

/**
 * The outbox: domain services call `record` inside the transaction of the change, so an event exists
 * exactly when the change committed (a rollback takes it away too). Delivery happens later
 * (NotificationDeliveryService). The body is rendered here, once, as the API shows the resource.
 *
 * Sequence, per resource: orders count in `payment_order.notify_sequence`, which the caller raises by
 * the number of events in the same UPDATE that made the change (`raiseNotifySequence`; that row write
 * also serialises every writer of the order's events, on any instance); it is read back here (a
 * transaction always sees its own write). A session or a refund is written
 * to by the conditional UPDATE that changed it just before, in this transaction, so its events are
 * serialised by that row and MAX(sequence) + 1 is exact; today each has exactly one event (its end state).
 */
@Injectable()
export class NotificationOutbox {
  constructor(private readonly clock: Clock) {}

  async record(manager: EntityManager, subject: NotificationSubject, types: NotificationType[]): Promise<NotificationEvent[]> {
    if (types.length === 0) return [];
    const resolved = await this.resolve(manager, subject, types.length);
    const now = this.clock.now();
    const events = types.map((type, index): NotificationEvent => {
      const id = randomUUID();
      const sequence = resolved.firstSequence + index;
      const body = {
        EventId: id,
        EventType: type,
        CreatedAt: now.toISOString(),
        Sequence: sequence,
        ...(resolved.view ? { [resolved.resourceType]: resolved.view } : {}),
      };
      return Object.assign(new NotificationEvent(), {
        id,
        merchantId: resolved.merchantId,
        resourceType: resolved.resourceType,
        resourceId: resolved.resourceId ?? id,
        sequence,
        type,
        payload: JSON.stringify(body),
        targetUrl: resolved.targetUrl,
        state: NotificationState.Pending,
        attempts: 0,
        retryCount: 0,
        nextAttemptAt: now,
        lockedUntil: null,
        lockedBy: null,
        lastStatus: null,
        lastError: null,
        deliveredAt: null,
        createdAt: now,
      });
    });
    // No re-read of defaults after the insert (TypeORM would SELECT them back on MySQL): every column is set.
    await manager.createQueryBuilder().insert().into(NotificationEvent).values(events).updateEntity(false).execute();
    return events;
  }

  private async resolve(manager: EntityManager, subject: NotificationSubject, count: number): Promise<Resolved> {
    if ('order' in subject) {
      const { order } = subject;
      const [row] = await manager.query('SELECT notify_sequence AS last FROM payment_order WHERE id = ?', [order.id]);
      if (!row) throw new Error(`Order ${order.id} does not exist`);
      return {
        merchantId: order.merchantId,
        resourceType: 'Order',
        resourceId: order.id,
        view: orderView(order, []),
        targetUrl: order.details?.Notify ?? null,
        firstSequence: Number(row.last) - count + 1,
      };
    }
    if ('refund' in subject) {
      const { refund } = subject;
      const order = await manager.getRepository(Order).findOne({ select: { id: true, details: true }, where: { id: refund.orderId } });
      return {
        merchantId: refund.merchantId,
        resourceType: 'Refund',
        resourceId: refund.id,
        view: { OrderId: refund.orderId, ...refundView(refund) },
        targetUrl: order?.details?.Notify ?? null,
        firstSequence: await this.nextSequence(manager, 'Refund', refund.id),
      };
    }
    if ('sessionId' in subject) {
      const session = await manager.getRepository(PaymentSession).findOneByOrFail({ id: subject.sessionId });
      const profile = await manager.getRepository(BillingProfile).findOneByOrFail({ id: session.billingProfileId });
      const order = await manager.getRepository(Order).findOneBy({ sessionId: session.id });
      return {
        merchantId: session.merchantId,
        resourceType: 'Session',
        resourceId: session.id,
        view: toSessionView(session, profile, order) as unknown as Record<string, unknown>,
        targetUrl: null,
        firstSequence: await this.nextSequence(manager, 'Session', session.id),
      };
    }
    // A test event is its own resource, with Sequence 1.
    return { merchantId: subject.testFor, resourceType: 'Test', resourceId: null, view: null, targetUrl: null, firstSequence: 1 };
  }

  private async nextSequence(manager: EntityManager, resourceType: ResourceType, resourceId: string): Promise<number> {
    const [row] = await manager.query('SELECT MAX(sequence) AS last FROM notification_event WHERE resource_type = ? AND resource_id = ?', [resourceType, resourceId]);
    return Number(row?.last ?? 0) + 1;
  }
}
