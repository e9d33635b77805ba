import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, LessThan } from 'typeorm';
import { CheckoutError, CheckoutErrorCode } from '../checkout/checkout-errors';
import { Clock } from '../common/clock/clock';
import { violatedUniqueIndex } from '../common/database/db-errors';
import { TransactionRunner } from '../common/database/transaction-runner';
import { NotificationOutbox } from '../notifications/notification-outbox.service';
import { NotificationType } from '../notifications/notification-types';
import { OrderService, refusal } from './order.service';
import { OrderState } from './order-state';
import { Order } from './order.entity';
import { PAYMENT_PROCESSOR, PaymentProcessor } from './processor/payment-processor';
import { Refund, RefundState } from './refund.entity';

const REFUND_REFERENCE = { UQ_refund_order_reference: 'order_refund.order_id, order_refund.reference_id' };
/** An InProgress refund untouched this long was interrupted and is sent to the processor again. */
const STUCK_REFUND_MS = 60 * 1000;

/** Thrown inside the reserving transaction to roll it back when the ReferenceId already exists. */
class ExistingReference extends Error {}

/**
 * Refunds: partial and multiple while their sum stays within the captured total, with the merchant's
 * ReferenceId as an idempotency key per order. States InProgress → Succeeded | Failed, apart from the order.
 */
@Injectable()
export class RefundService {
  private readonly logger = new Logger(RefundService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly orders: OrderService,
    private readonly clock: Clock,
    @Inject(PAYMENT_PROCESSOR) private readonly processor: PaymentProcessor,
    private readonly outbox: NotificationOutbox,
  ) {}

  async refund(merchantId: string, orderId: string, referenceId: string, amountMinor: number): Promise<Refund> {
    // Interpolated into the reserving UPDATE below: it must be a plain positive integer.
    if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0) throw new CheckoutError(CheckoutErrorCode.AmountInvalid, 'Amount must be greater than zero');
    const order = await this.orders.require(merchantId, { orderId });
    const existing = await this.byReference(order.id, referenceId);
    if (existing) return this.sameRefund(existing, amountMinor);
    if (order.state !== OrderState.Processed) throw refusal('refund', order);

    let refund: Refund;
    try {
      refund = await this.transactions.run(async (manager) => {
        // The reservation: one conditional UPDATE, so concurrent refunds can never sum past the total.
        const reserved = await manager
          .createQueryBuilder()
          .update(Order)
          .set({ refundedMinor: () => `refunded_minor + ${amountMinor}` })
          .where('id = :id AND state = :state AND refunded_minor + :amount <= total_minor', { id: order.id, state: OrderState.Processed, amount: amountMinor })
          .execute();
        if (reserved.affected !== 1) {
          throw new CheckoutError(CheckoutErrorCode.RefundLimitExceeded, 'The refunds of this order would exceed the captured amount');
        }
        const row: Refund = manager.getRepository(Refund).create({
          id: randomUUID(),
          orderId: order.id,
          merchantId,
          referenceId,
          amountMinor,
          currency: order.currency,
          state: RefundState.InProgress,
          failureReason: null,
          // Set here, not by the database: SQLite's default has whole seconds, and refunds list in this order.
          createdAt: this.clock.now(),
          completedAt: null,
        });
        try {
          await manager.getRepository(Refund).insert(row);
        } catch (error) {
          if (violatedUniqueIndex(error, REFUND_REFERENCE)) throw new ExistingReference();
          throw error;
        }
        return row;
      });
    } catch (error) {
      // The same ReferenceId won a race: its reservation stands, ours was rolled back.
      if (error instanceof ExistingReference) return this.sameRefund((await this.byReference(order.id, referenceId))!, amountMinor);
      throw error;
    }
    await this.process(refund);
    return refund;
  }

  /** Scheduled: sends refunds left InProgress by an interrupted instance to the processor again. */
  async recoverInterrupted(limit = 100): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - STUCK_REFUND_MS);
    const stuck = await this.dataSource.getRepository(Refund).find({ where: { state: RefundState.InProgress, createdAt: LessThan(cutoff) }, take: limit });
    for (const refund of stuck) await this.process(refund).catch((error) => this.logger.warn(`refund recovery of ${refund.id}: ${error}`));
    return stuck.length;
  }

  /**
   * Asks the processor (idempotent by refund id) and records the outcome with its notification
   * (REFUND_SUCCEEDED or REFUND_FAILED); a failure frees the amount again.
   */
  private async process(refund: Refund): Promise<void> {
    const result = await this.processor.refund(refund.id, refund.orderId, refund.amountMinor, refund.currency);
    const completedAt = this.clock.now();
    const outcome = { state: result.succeeded ? RefundState.Succeeded : RefundState.Failed, failureReason: result.reason ?? null, completedAt };
    await this.transactions.run(async (manager) => {
      const finished = await manager.getRepository(Refund).update({ id: refund.id, state: RefundState.InProgress }, outcome);
      if (finished.affected === 1) {
        const type = result.succeeded ? NotificationType.RefundSucceeded : NotificationType.RefundFailed;
        await this.outbox.record(manager, { refund: { ...refund, ...outcome } }, [type]);
      }
      if (finished.affected === 1 && !result.succeeded) {
        await manager
          .createQueryBuilder()
          .update(Order)
          .set({ refundedMinor: () => `refunded_minor - ${refund.amountMinor}` })
          .where('id = :id', { id: refund.orderId })
          .execute();
      }
    });
    Object.assign(refund, outcome);
  }

  private byReference(orderId: string, referenceId: string): Promise<Refund | null> {
    return this.dataSource.getRepository(Refund).findOneBy({ orderId, referenceId });
  }

  /** A ReferenceId seen before: the same request gets the same refund; different parameters are refused. */
  private sameRefund(existing: Refund, amountMinor: number): Refund {
    if (existing.amountMinor !== amountMinor) {
      throw new CheckoutError(CheckoutErrorCode.ReferenceIdMismatch, 'This ReferenceId was already used for a refund of a different Amount');
    }
    return existing;
  }
}
