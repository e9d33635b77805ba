import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { CheckoutError, CheckoutErrorCode } from '../checkout/checkout-errors';
import { findPaymentMethod } from '../checkout/payment-methods/payment-method-catalogue';
import { AppConfig } from '../common/config/app-config';
import { Clock } from '../common/clock/clock';
import { TransactionRunner } from '../common/database/transaction-runner';
import { Contract } from './contract.entity';
import { AUTHORIZATION_LIFETIME_MS, OrderService } from './order.service';
import { OrderState } from './order-state';
import { Order, OrderAction } from './order.entity';
import { AuthorizationResult, PAYMENT_PROCESSOR, PaymentProcessor } from './processor/payment-processor';

export type DeclineReason = 'declined' | 'insufficient_funds' | 'abandoned';

/**
 * Takes an order from Processing through the processor's authorization to its next state, whoever
 * started it (a signed checkout, or later the hosted payment page), and finishes the shopper's step
 * (3-D Secure challenge, redirect approval, bank transfer funds).
 */
@Injectable()
export class OrderPaymentService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly orders: OrderService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    @Inject(PAYMENT_PROCESSOR) private readonly processor: PaymentProcessor,
  ) {}

  /** Asks the processor to authorize the order's current attempt and applies the outcome. */
  async authorize(order: Order, options: { openContract: boolean }): Promise<{ declined?: DeclineReason }> {
    const result = await this.processor.authorize({
      merchantId: order.merchantId,
      orderId: order.id,
      attemptKey: attemptKey(order),
      reference: order.referenceId,
      amountMinor: order.totalMinor,
      currency: order.currency,
      method: method(order),
      cardToken: order.cardToken ?? undefined,
      merchantInitiated: order.contractId !== null,
    });
    return this.apply(order, result, options.openContract);
  }

  /**
   * The shopper finished the Challenge or Redirect step at the URL the order's Action gave. The token
   * in that URL is the shopper's proof; a wrong one, or an order no longer waiting, is "not found".
   */
  async completeAuthentication(orderId: string, token: string, approved: boolean): Promise<Order> {
    const order = await this.pendingAuthentication(orderId, token);
    if (!order) throw new CheckoutError(CheckoutErrorCode.OrderNotFound, 'No order is waiting for this authorization');
    const outcome = await this.processor.completeAuthentication(order.id, attemptKey(order), approved);
    if (outcome === 'approved') {
      await this.apply(order, { outcome: 'approved' }, order.details.OpenContract === true);
      return order;
    }
    if (await this.orders.move(order, OrderState.ProcessingFailed, { action: null }, DECLINE_TEXT[approved ? 'declined' : 'abandoned'])) return order;
    // Ended first by someone else (the abandoned-authentications job, the merchant): answer what it is now.
    return this.dataSource.getRepository(Order).findOneByOrFail({ id: order.id });
  }

  /**
   * Scheduled, for a shopper who never came back from the Challenge or Redirect step: ends it at the
   * processor as the shopper's Decline does (the processor keeps the first answer per attempt, so a
   * shopper approving at the same moment either wins, and this returns false, or is told it was
   * declined), then fails the order and runs `alongside` (the session's move) in the same transaction.
   * False when anything moved first; then nothing is written.
   */
  async abandonAuthentication(order: Order, reason: string, alongside: (manager: EntityManager) => Promise<boolean>): Promise<boolean> {
    if (order.state !== OrderState.Pending || actionToken(order.action) === null) return false;
    if ((await this.processor.completeAuthentication(order.id, attemptKey(order), false)) === 'approved') return false;
    const lost = new Error('moved concurrently');
    try {
      return await this.transactions.run(async (manager) => {
        // A copy per attempt: a deadlock retry must start from the version that was read.
        const attempt = { ...order } as Order;
        if (!(await this.orders.transition(manager, attempt, OrderState.ProcessingFailed, { action: null }, reason))) return false;
        if (!(await alongside(manager))) throw lost; // rolls the order's move back
        Object.assign(order, attempt);
        return true;
      });
    } catch (error) {
      if (error === lost) return false;
      throw error;
    }
  }

  /** The order waiting at this authorization link, or null (unknown, wrong token, already finished). */
  async pendingAuthentication(orderId: string, token: string): Promise<Order | null> {
    const order = await this.dataSource.getRepository(Order).findOneBy({ id: orderId });
    const expected = order?.state === OrderState.Pending ? actionToken(order.action) : null;
    if (!order || !expected || expected.length !== token.length) return null;
    return timingSafeEqual(Buffer.from(expected), Buffer.from(token)) ? order : null;
  }

  /** Sandbox and back office: the bank transfer (or voucher) for a Pending order was paid. */
  async fundsReceived(orderId: string): Promise<Order> {
    for (;;) {
      const order = await this.dataSource.getRepository(Order).findOneBy({ id: orderId });
      if (!order) throw new CheckoutError(CheckoutErrorCode.OrderNotFound, 'No order has this OrderId');
      if (order.state !== OrderState.Pending || !order.action || !('Display' in order.action)) {
        throw new CheckoutError(CheckoutErrorCode.OrderStateInvalid, `Order ${order.id} is ${order.state}, not waiting for funds`);
      }
      const now = this.clock.now();
      if (await this.orders.move(order, OrderState.Processed, { authorizedAt: now, processedAt: now, action: null }, 'funds received')) return order;
    }
  }

  private async apply(order: Order, result: AuthorizationResult, openContract: boolean): Promise<{ declined?: DeclineReason }> {
    switch (result.outcome) {
      case 'approved':
        await this.approve(order, openContract, result.underReview === true);
        return {};
      case 'declined':
        await this.decline(order, result.reason);
        return { declined: result.reason };
      case 'challenge':
        await this.awaitShopper(order, { Challenge: this.authorizationUrl(order) }, 'waiting for 3-D Secure');
        return {};
      case 'redirect':
        await this.awaitShopper(order, { Redirect: this.authorizationUrl(order) }, 'waiting for the shopper to approve');
        return {};
      case 'awaiting_funds':
        await this.transition(order, OrderState.Pending, { action: { Display: { BankDetails: result.bankDetails } }, bankDetails: result.bankDetails }, 'waiting for funds');
        return {};
    }
  }

  /**
   * Authorized: captured at once when asked (or when the method cannot capture later), else held 7
   * days. An order under fraud review is held whatever was asked, until the review settles it.
   */
  private async approve(order: Order, openContract: boolean, underReview = false): Promise<void> {
    const now = this.clock.now();
    const captureNow = !underReview && (order.captureRequested || !method(order).delayedCapture);
    if (captureNow && !(await this.processor.capture(order.id, order.totalMinor, order.currency))) {
      await this.transition(order, OrderState.ProcessingFailed, { action: null }, 'capture failed at the processor');
      return;
    }
    const moved = await this.transactions.run(async (manager) => {
      let contractId: string | null = order.contractId;
      if (openContract && order.cardToken && order.cardBrand && order.cardLast4) {
        contractId = randomUUID();
        await manager.getRepository(Contract).insert({
          id: contractId,
          merchantId: order.merchantId,
          paymentMethod: order.paymentMethod,
          cardToken: order.cardToken,
          cardBrand: order.cardBrand,
          cardLast4: order.cardLast4,
          state: 'Open',
          orderId: order.id,
        });
      }
      const changes: Partial<Order> = captureNow
        ? { authorizedAt: now, processedAt: now, action: null, contractId }
        : { authorizedAt: now, expiresAt: new Date(now.getTime() + AUTHORIZATION_LIFETIME_MS), action: null, contractId, underReview };
      return this.orders.transition(manager, order, captureNow ? OrderState.Processed : OrderState.PaymentAuthorized, changes, 'authorized');
    });
    if (!moved) throw new Error(`Order ${order.id} changed while it was being authorized`);
  }

  private decline(order: Order, reason: DeclineReason): Promise<void> {
    return this.transition(order, OrderState.ProcessingFailed, { action: null }, DECLINE_TEXT[reason]);
  }

  private awaitShopper(order: Order, action: OrderAction, reason: string): Promise<void> {
    return this.transition(order, OrderState.Pending, { action }, reason);
  }

  private async transition(order: Order, to: OrderState, changes: Partial<Order>, reason: string): Promise<void> {
    if (!(await this.orders.move(order, to, changes, reason))) throw new Error(`Order ${order.id} changed while it was being authorized`);
  }

  /** The page where the shopper approves (redirect) or answers the 3-D Secure challenge; the token proves the link. */
  private authorizationUrl(order: Order): string {
    return `${this.config.publicUrl}/pay/order/${order.id}?token=${randomBytes(24).toString('base64url')}`;
  }
}

/** The order event's reason for each kind of decline. */
const DECLINE_TEXT: Record<DeclineReason, string> = {
  declined: 'declined by the issuer',
  insufficient_funds: 'insufficient funds',
  abandoned: 'the shopper did not complete the payment',
};

/** One processor authorization per attempt of an order (a declined checkout may be tried again). */
const attemptKey = (order: Order) => `${order.id}:${order.attempts}`;

const method = (order: Order) => {
  const found = findPaymentMethod(order.paymentMethod);
  if (!found) throw new Error(`Order ${order.id} has unknown payment method ${order.paymentMethod}`);
  return found;
};

function actionToken(action: OrderAction | null): string | null {
  const url = action && ('Challenge' in action ? action.Challenge : 'Redirect' in action ? action.Redirect : null);
  return url ? new URL(url).searchParams.get('token') : null;
}
