import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, In, LessThan } from 'typeorm';
import { CheckoutError, CheckoutErrorCode } from '../checkout/checkout-errors';
import { Clock } from '../common/clock/clock';
import { TransactionRunner } from '../common/database/transaction-runner';
import { NotificationOutbox, raiseNotifySequence } from '../notifications/notification-outbox.service';
import { NotificationType, orderEventTypes } from '../notifications/notification-types';
import { OrderEvent } from './order-event.entity';
import { canTransition, OrderState } from './order-state';
import { Order } from './order.entity';
import { PAYMENT_PROCESSOR, PaymentProcessor } from './processor/payment-processor';
import { Refund } from './refund.entity';

/** Capture must happen within this long after authorization (DESIGN.md section 5). */
export const AUTHORIZATION_LIFETIME_MS = 7 * 24 * 3600 * 1000;
/**
 * The expiry job leaves an expired authorization alone this long, so that a capture that read the
 * order just before the deadline finishes first; a capture itself refuses from the deadline on.
 */
export const EXPIRY_GRACE_MS = 60 * 1000;
/** A Processing order untouched this long was interrupted (its instance died) and is finished by a job. */
export const STUCK_PROCESSING_MS = 60 * 1000;

/** How long (× 50 ms) a capture waits for a concurrent capture of the same order to finish. */
const CAPTURE_WAIT_ROUNDS = 100;

/** What the creator of an order decides; the rest is the initial state. */
export type NewOrder = Partial<Order> & Pick<Order, 'merchantId' | 'source' | 'referenceId' | 'sessionId' | 'paymentMethod' | 'currency' | 'totalMinor'>;

export type OrderLookup = { orderId: string } | { referenceId: string };

/**
 * Orders after checkout: the single place where state changes (transition), and the merchant's
 * operations on them: capture, cancel, and expiry of uncaptured authorizations.
 */
@Injectable()
export class OrderService {
  private readonly logger = new Logger(OrderService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
    @Inject(PAYMENT_PROCESSOR) private readonly processor: PaymentProcessor,
    private readonly outbox: NotificationOutbox,
  ) {}

  /**
   * The only way an order changes state: applies when the order is still at the version the caller
   * read (false otherwise: someone else moved it first) and writes an order_event, and the
   * notifications the change causes (notification-types.ts), in the same transaction.
   */
  async transition(manager: EntityManager, order: Order, to: OrderState, changes: Partial<Order> = {}, reason: string | null = null): Promise<boolean> {
    if (!canTransition(order.state, to)) throw new Error(`Illegal order transition ${order.state} → ${to}`);
    const notifications = orderEventTypes(order.authorizedAt !== null, to);
    const result = await manager
      .createQueryBuilder()
      .update(Order)
      .set({ ...changes, state: to, version: order.version + 1, ...(notifications.length ? { notifySequence: raiseNotifySequence(notifications.length) } : {}) })
      .where('id = :id AND version = :version', { id: order.id, version: order.version })
      .execute();
    if (result.affected !== 1) return false;
    await manager.getRepository(OrderEvent).insert({
      id: randomUUID(),
      orderId: order.id,
      merchantId: order.merchantId,
      sequence: order.version + 1,
      fromState: order.state,
      toState: to,
      reason,
    });
    if (notifications.length) {
      await this.outbox.record(manager, { order: { ...order, ...changes, state: to, version: order.version + 1 } as Order }, notifications);
    }
    Object.assign(order, changes, { state: to, version: order.version + 1 });
    return true;
  }

  /**
   * A new order in the initial state (Processing: its authorization is about to start) with its first
   * event, in one transaction. A unique-index violation (ReferenceId or session taken) is thrown as is.
   */
  async open(fields: NewOrder, reason: string): Promise<Order> {
    const order = this.dataSource.getRepository(Order).create({
      rateOfferId: null,
      rate: null,
      contractId: null,
      deviceFingerprint: null,
      ...fields,
      id: randomUUID(),
      state: OrderState.Processing,
      version: 1,
      underReview: false,
      refundedMinor: 0,
      attempts: 1,
      action: null,
      bankDetails: null,
      expiresAt: null,
      authorizedAt: null,
      processedAt: null,
      cancelledAt: null,
      // Set here, not by the database: SQLite's default has whole seconds, and lists order by it.
      createdAt: this.clock.now(),
    });
    await this.transactions.run(async (manager) => {
      // A copy: on MySQL TypeORM writes the re-read defaults back raw (0 for false) into what it inserted.
      await manager.getRepository(Order).insert({ ...order });
      await manager.getRepository(OrderEvent).insert({
        id: randomUUID(), orderId: order.id, merchantId: order.merchantId, sequence: 1, fromState: null, toState: OrderState.Processing, reason,
      });
    });
    return order;
  }

  /** Runs `transition` in its own transaction. */
  move(order: Order, to: OrderState, changes: Partial<Order> = {}, reason: string | null = null): Promise<boolean> {
    return this.transactions.run((manager) => this.transition(manager, order, to, changes, reason));
  }

  /** The merchant's order, by OrderId or checkout ReferenceId; another merchant's is "not found". */
  async find(merchantId: string, lookup: OrderLookup): Promise<Order | null> {
    const repository = this.dataSource.getRepository(Order);
    if ('orderId' in lookup) return repository.findOneBy({ id: lookup.orderId, merchantId });
    return repository.findOneBy({ merchantId, source: 'checkout', referenceId: lookup.referenceId });
  }

  async require(merchantId: string, lookup: OrderLookup): Promise<Order> {
    const order = await this.find(merchantId, lookup);
    if (!order) throw new CheckoutError(CheckoutErrorCode.OrderNotFound, 'No order of this merchant has this OrderId');
    return order;
  }

  refundsOf(orderId: string): Promise<Refund[]> {
    return this.dataSource.getRepository(Refund).find({ where: { orderId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /**
   * Captures a PaymentAuthorized order before its Expiry. Claims it first (→ Processing) so that a
   * racing capture or cancel cannot also act; a repeated capture of a Processed order is answered as
   * done without capturing again.
   */
  async capture(merchantId: string, orderId: string): Promise<Order> {
    for (;;) {
      const order = await this.settled(merchantId, orderId);
      if (order.state === OrderState.Processed) return order;
      if (order.state === OrderState.PaymentAuthorized && order.underReview) {
        throw new CheckoutError(CheckoutErrorCode.UnderReview, 'The order is under fraud review and cannot be captured yet');
      }
      if (order.state === OrderState.PaymentAuthorized && this.hasExpired(order)) {
        await this.expire(order);
        continue;
      }
      if (order.state !== OrderState.PaymentAuthorized) throw refusal('capture', order);
      if (!(await this.move(order, OrderState.Processing, {}, 'capture requested'))) continue;
      return this.finishCapture(order);
    }
  }

  /** Voids an authorization (or a payment the shopper has not finished) before capture. Idempotent. */
  async cancel(merchantId: string, orderId: string): Promise<Order> {
    for (;;) {
      const order = await this.settled(merchantId, orderId);
      if (order.state === OrderState.Cancelled) return order;
      if (order.state !== OrderState.PaymentAuthorized && order.state !== OrderState.Pending) throw refusal('cancel', order);
      if (!(await this.move(order, OrderState.Cancelled, { cancelledAt: this.clock.now(), action: null }, 'cancelled by merchant'))) continue;
      await this.processor.void(order.id);
      return order;
    }
  }

  /**
   * Settles a fraud review of a PaymentAuthorized order: approved clears the flag (and captures when
   * the checkout asked for capture); declined moves the order to Declined and voids it.
   */
  async settleReview(orderId: string, approved: boolean): Promise<Order> {
    for (;;) {
      const order = await this.dataSource.getRepository(Order).findOneBy({ id: orderId });
      if (!order) throw new CheckoutError(CheckoutErrorCode.OrderNotFound, 'No order has this OrderId');
      if (order.state !== OrderState.PaymentAuthorized || !order.underReview) {
        throw new CheckoutError(CheckoutErrorCode.OrderStateInvalid, `Order ${order.id} is ${order.state}${order.underReview ? '' : ', not under review'}`);
      }
      if (!approved) {
        if (!(await this.move(order, OrderState.Declined, { underReview: false }, 'declined by fraud review'))) continue;
        await this.processor.void(order.id);
        return order;
      }
      const cleared = await this.transactions.run(async (manager) => {
        const result = await manager.getRepository(Order).update({ id: order.id, version: order.version }, { underReview: false, version: order.version + 1 });
        if (result.affected !== 1) return false;
        await manager.getRepository(OrderEvent).insert({
          id: randomUUID(), orderId: order.id, merchantId: order.merchantId, sequence: order.version + 1, fromState: order.state, toState: order.state, reason: 'fraud review approved',
        });
        return true;
      });
      if (!cleared) continue;
      return order.captureRequested ? this.capture(order.merchantId, order.id) : { ...order, underReview: false, version: order.version + 1 } as Order;
    }
  }

  /** Scheduled: cancels authorizations past their Expiry (plus a grace). Safe to run on several instances. */
  async expireAuthorizations(limit = 500): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - EXPIRY_GRACE_MS);
    const expired = await this.dataSource.getRepository(Order).find({
      where: { state: OrderState.PaymentAuthorized, expiresAt: LessThan(cutoff) },
      take: limit,
    });
    let count = 0;
    for (const order of expired) if (await this.expire(order)) count++;
    return count;
  }

  /**
   * Scheduled: records ORDER_CAPTURE_DEADLINE_APPROACHING once per authorization for PaymentAuthorized
   * orders whose Expiry is less than `withinMs` away. The conditional UPDATE that marks the order (for
   * this Expiry) is the claim, so two runs or instances never remind twice.
   */
  async remindCaptureDeadlines(withinMs: number, limit = 500): Promise<number> {
    const now = this.clock.now();
    const due = await this.dataSource
      .getRepository(Order)
      .createQueryBuilder('o')
      .select('o.id', 'id')
      .where('o.state = :state AND o.expires_at > :now AND o.expires_at <= :until', { state: OrderState.PaymentAuthorized, now, until: new Date(now.getTime() + withinMs) })
      .andWhere('(o.capture_reminder_for IS NULL OR o.capture_reminder_for <> o.expires_at)')
      .limit(limit)
      .getRawMany<{ id: string }>();
    let count = 0;
    for (const { id } of due) {
      const reminded = await this.transactions.run(async (manager) => {
        const claimed = await manager
          .createQueryBuilder()
          .update(Order)
          .set({ captureReminderFor: () => 'expires_at', notifySequence: raiseNotifySequence(1) })
          .where('id = :id AND state = :state AND (capture_reminder_for IS NULL OR capture_reminder_for <> expires_at)', { id, state: OrderState.PaymentAuthorized })
          .execute();
        if (claimed.affected !== 1) return false;
        const order = await manager.getRepository(Order).findOneByOrFail({ id });
        await this.outbox.record(manager, { order }, [NotificationType.OrderCaptureDeadlineApproaching]);
        return true;
      });
      if (reminded) count++;
    }
    return count;
  }

  /**
   * Scheduled: finishes orders left in Processing by an instance that died. A capture is completed
   * (the processor's idempotency key makes that safe); an interrupted first authorization fails, so
   * that the merchant may try the checkout again under the same ReferenceId.
   */
  async recoverInterrupted(limit = 100): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - STUCK_PROCESSING_MS);
    const candidates = await this.dataSource.getRepository(Order).find({ where: { state: OrderState.Processing }, take: limit * 4 });
    let count = 0;
    for (const order of candidates.slice(0, limit)) {
      const last = await this.dataSource.getRepository(OrderEvent).findOneBy({ orderId: order.id, sequence: order.version });
      if (last && last.createdAt > cutoff) continue;
      if (order.authorizedAt) await this.finishCapture(order).catch((error) => this.logger.warn(`capture recovery of ${order.id}: ${error}`));
      else await this.move(order, OrderState.ProcessingFailed, {}, 'authorization interrupted');
      count++;
    }
    return count;
  }

  /** Orders in any of `states` for a merchant: used by dashboards and reports later. */
  countByState(merchantId: string, states: OrderState[]): Promise<number> {
    return this.dataSource.getRepository(Order).countBy({ merchantId, state: In(states) });
  }

  /** The order, after waiting out a capture in flight (another request holds the claim), so we answer its outcome. */
  private async settled(merchantId: string, orderId: string): Promise<Order> {
    for (let round = 0; ; round++) {
      const order = await this.require(merchantId, { orderId });
      const capturing = order.state === OrderState.Processing && order.authorizedAt !== null;
      if (!capturing || round >= CAPTURE_WAIT_ROUNDS) return order;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private hasExpired(order: Order): boolean {
    return order.expiresAt !== null && order.expiresAt.getTime() <= this.clock.now().getTime();
  }

  private async expire(order: Order): Promise<boolean> {
    const moved = await this.move(order, OrderState.Cancelled, { cancelledAt: this.clock.now() }, 'authorization expired');
    if (moved) await this.processor.void(order.id);
    return moved;
  }

  private async finishCapture(order: Order): Promise<Order> {
    const captured = await this.processor.capture(order.id, order.totalMinor, order.currency);
    if (!captured) {
      await this.move(order, OrderState.ProcessingFailed, {}, 'capture failed at the processor');
      throw new CheckoutError(CheckoutErrorCode.PaymentFailed, 'The processor did not capture the payment');
    }
    // Only this claim holder moves the order on from Processing, so this cannot lose a race.
    await this.move(order, OrderState.Processed, { processedAt: this.clock.now() }, 'captured');
    return order;
  }
}

/** The code DESIGN.md section 5 gives for an operation the order's state does not allow. */
export function refusal(operation: 'capture' | 'cancel' | 'refund', order: Order): CheckoutError {
  if (order.state === OrderState.Cancelled && operation !== 'refund') {
    return new CheckoutError(CheckoutErrorCode.AlreadyCancelled, 'The order was cancelled (by the merchant, or because its authorization expired)');
  }
  if (order.state === OrderState.Declined && operation !== 'refund') return new CheckoutError(CheckoutErrorCode.AlreadyDeclined, 'The order was declined');
  if (order.state === OrderState.Processed && operation === 'cancel') {
    return new CheckoutError(CheckoutErrorCode.AlreadyCaptured, 'The order is already captured: refund it instead');
  }
  const allowed = operation === 'refund' ? 'Processed' : operation === 'capture' ? 'PaymentAuthorized' : 'PaymentAuthorized or Pending';
  return new CheckoutError(CheckoutErrorCode.OrderStateInvalid, `Cannot ${operation} an order in state ${order.state}; it must be ${allowed}`);
}
