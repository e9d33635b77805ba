import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { OrderState } from '../../src/orders/order-state';
import { Order } from '../../src/orders/order.entity';
import { Refund, RefundState } from '../../src/orders/refund.entity';
import { PaymentSession } from '../../src/session/session.entity';
import { SessionState } from '../../src/session/session-state';

const DAY = 24 * 3600 * 1000;

export interface CompletionOptions {
  state?: OrderState;
  totalMinor?: number;
  currency?: string;
  refunds?: { amountMinor: number; state: RefundState }[];
  expiresAt?: Date;
  /** All refunds created in the same instant (their order is then by id), instead of 1 ms apart. */
  refundsInOneInstant?: boolean;
}

/**
 * What the payment page does, written straight into the tables for read tests: the session completes
 * into an order with the session's id and MerchantReference, and the order has these refunds.
 */
export async function completeSessionIntoOrder(
  dataSource: DataSource,
  session: { SessionId: string; MerchantReference: string },
  options: CompletionOptions = {},
): Promise<Order> {
  const stored = await dataSource.getRepository(PaymentSession).findOneByOrFail({ id: session.SessionId });
  await dataSource.getRepository(PaymentSession).update({ id: stored.id }, { state: SessionState.Completed });
  const state = options.state ?? OrderState.Processed;
  const refunds = options.refunds ?? [];
  const now = new Date();
  // Only what a row needs; nullable columns the dashboard does not show are left out.
  const order = dataSource.getRepository(Order).create({
    id: randomUUID(),
    merchantId: stored.merchantId,
    source: 'session',
    referenceId: session.MerchantReference,
    sessionId: stored.id,
    state,
    version: 1,
    underReview: false,
    paymentMethod: 'VISA',
    currency: options.currency ?? stored.currency,
    totalMinor: options.totalMinor ?? stored.totalAmount,
    refundedMinor: refunds.filter((r) => r.state !== RefundState.Failed).reduce((sum, r) => sum + r.amountMinor, 0),
    captureRequested: state === OrderState.Processed,
    remittanceCurrency: 'USD',
    cardBrand: 'VISA',
    cardLast4: '1111',
    details: { Items: [], ViaAgent: false },
    requestHash: '0'.repeat(64),
    attempts: 1,
    expiresAt: state === OrderState.PaymentAuthorized ? (options.expiresAt ?? new Date(now.getTime() + 7 * DAY)) : null,
    authorizedAt: now,
    processedAt: state === OrderState.Processed ? now : null,
    cancelledAt: null,
  });
  await dataSource.getRepository(Order).insert(order);
  let i = 0;
  for (const refund of refunds) {
    i++;
    await dataSource.getRepository(Refund).insert({
      id: randomUUID(),
      orderId: order.id,
      merchantId: order.merchantId,
      referenceId: `refund-${i}`,
      amountMinor: refund.amountMinor,
      currency: order.currency,
      state: refund.state,
      failureReason: refund.state === RefundState.Failed ? 'declined by the processor' : null,
      createdAt: new Date(now.getTime() + (options.refundsInOneInstant ? 0 : i)),
      completedAt: refund.state === RefundState.InProgress ? null : now,
    });
  }
  return order;
}
