import { OrderState } from '../../orders/order-state';
import { Order } from '../../orders/order.entity';
import { Refund } from '../../orders/refund.entity';
import { money } from '../common/money.model';
import { OrderModel, RefundModel } from './order.model';

export function toOrderModel(order: Order): OrderModel {
  return {
    id: order.id,
    merchantId: order.merchantId,
    source: order.source,
    referenceId: order.referenceId,
    sessionId: order.sessionId,
    state: order.state,
    underReview: order.underReview,
    paymentMethod: order.paymentMethod,
    total: money(order.totalMinor, order.currency),
    refunded: money(order.refundedMinor, order.currency),
    captureDeadline: order.state === OrderState.PaymentAuthorized ? order.expiresAt : null,
    card: order.cardBrand && order.cardLast4 ? { brand: order.cardBrand, last4: order.cardLast4 } : null,
    createdAt: order.createdAt,
    authorizedAt: order.authorizedAt,
    processedAt: order.processedAt,
    cancelledAt: order.cancelledAt,
  };
}

export function toRefundModel(refund: Refund): RefundModel {
  return {
    id: refund.id,
    orderId: refund.orderId,
    merchantId: refund.merchantId,
    referenceId: refund.referenceId,
    amount: money(refund.amountMinor, refund.currency),
    state: refund.state,
    failureReason: refund.failureReason,
    createdAt: refund.createdAt,
    completedAt: refund.completedAt,
  };
}
