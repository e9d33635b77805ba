import { formatMinorUnits } from '../../common/money/money';
import { isAuthorized, OrderState } from '../../orders/order-state';
import { Order } from '../../orders/order.entity';
import { Refund } from '../../orders/refund.entity';

/** The checkout answer: {OrderId, Authorized, Completed, UnderReview, ContractId?, Action?, Expiry?}. */
export function checkoutAnswer(order: Order): Record<string, unknown> {
  return {
    OrderId: order.id,
    Authorized: isAuthorized(order.state),
    Completed: order.state === OrderState.Processed,
    UnderReview: order.underReview,
    ...(order.contractId ? { ContractId: order.contractId } : {}),
    ...(order.action ? { Action: order.action } : {}),
    ...(order.state === OrderState.PaymentAuthorized && order.expiresAt ? { Expiry: order.expiresAt.toISOString() } : {}),
  };
}

export function refundView(refund: Refund): Record<string, unknown> {
  return {
    RefundId: refund.id,
    ReferenceId: refund.referenceId,
    Amount: formatMinorUnits(refund.amountMinor, refund.currency),
    Currency: refund.currency,
    State: refund.state,
    ...(refund.failureReason ? { Reason: refund.failureReason } : {}),
    Times: { Created: refund.createdAt.toISOString(), ...(refund.completedAt ? { Completed: refund.completedAt.toISOString() } : {}) },
  };
}

/** query: the order as the merchant sees it, with its refunds. Card data: scheme and last four only. */
export function orderView(order: Order, refunds: Refund[]): Record<string, unknown> {
  const times: Record<string, string> = { Created: order.createdAt.toISOString() };
  if (order.authorizedAt) times.Authorized = order.authorizedAt.toISOString();
  if (order.processedAt) times.Processed = order.processedAt.toISOString();
  if (order.cancelledAt) times.Cancelled = order.cancelledAt.toISOString();
  return {
    OrderId: order.id,
    ReferenceId: order.referenceId,
    ...(order.sessionId ? { SessionId: order.sessionId } : {}),
    OrderState: order.state,
    UnderReview: order.underReview,
    PaymentMethod: order.paymentMethod,
    ConsumerCurrency: order.currency,
    ConsumerTotal: formatMinorUnits(order.totalMinor, order.currency),
    RefundedAmount: formatMinorUnits(refunds.filter((r) => r.state === 'Succeeded').reduce((sum, r) => sum + r.amountMinor, 0), order.currency),
    Captured: order.state === OrderState.Processed,
    ...(order.state === OrderState.PaymentAuthorized && order.expiresAt ? { Expiry: order.expiresAt.toISOString() } : {}),
    ...(order.rateOfferId ? { RateOfferId: order.rateOfferId, Rate: order.rate } : {}),
    ...(order.contractId ? { ContractId: order.contractId } : {}),
    ...(order.cardBrand ? { Card: { Brand: order.cardBrand, Last4: order.cardLast4 } } : {}),
    ...(order.bankDetails ? { BankDetails: order.bankDetails } : {}),
    ...(order.action ? { Action: order.action } : {}),
    Items: order.details.Items,
    Times: times,
    Refunds: refunds.map(refundView),
  };
}
