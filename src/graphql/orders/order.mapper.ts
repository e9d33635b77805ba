import { OrderState } from '../../orders/order-state';
import { Order } from '../../orders/order.entity';
import { Refund } from '../../orders/refund.entity';
import { Money, money } from '../common/money.model';
import { ModelColumns } from '../read/model-columns';
import { SessionModel } from '../sessions/session.model';
import { CardModel, OrderModel, RefundModel } from './order.model';

/** The columns each field of Order reads (OrderNode below); a test reads every field alone against a full read. */
export const ORDER_FIELD_COLUMNS: ModelColumns<OrderModel, Order> = {
  id: ['id'],
  merchantId: ['merchantId'],
  source: ['source'],
  referenceId: ['referenceId'],
  sessionId: ['sessionId'],
  state: ['state'],
  underReview: ['underReview'],
  paymentMethod: ['paymentMethod'],
  total: ['totalMinor', 'currency'],
  refunded: ['refundedMinor', 'currency'],
  captureDeadline: ['state', 'expiresAt'],
  card: ['cardBrand', 'cardLast4'],
  createdAt: ['createdAt'],
  authorizedAt: ['authorizedAt'],
  processedAt: ['processedAt'],
  cancelledAt: ['cancelledAt'],
  refunds: ['id'],
  session: ['sessionId'],
};

/** An order as GraphQL shows it, read from the entity only when a field is asked for (as SessionNode). */
class OrderNode implements OrderModel {
  // Related objects: filled by Relations (or the sessions page's joins) when the query asks for them.
  refunds?: RefundModel[];
  session?: SessionModel | null;

  constructor(private readonly order: Order) {}

  get id(): string {
    return this.order.id;
  }
  get merchantId(): string {
    return this.order.merchantId;
  }
  get source(): Order['source'] {
    return this.order.source;
  }
  get referenceId(): string {
    return this.order.referenceId;
  }
  get sessionId(): string | null {
    return this.order.sessionId;
  }
  get state(): OrderState {
    return this.order.state;
  }
  get underReview(): boolean {
    return this.order.underReview;
  }
  get paymentMethod(): string {
    return this.order.paymentMethod;
  }
  get total(): Money {
    return money(this.order.totalMinor, this.order.currency);
  }
  get refunded(): Money {
    return money(this.order.refundedMinor, this.order.currency);
  }
  get captureDeadline(): Date | null {
    return this.order.state === OrderState.PaymentAuthorized ? this.order.expiresAt : null;
  }
  get card(): CardModel | null {
    const { cardBrand, cardLast4 } = this.order;
    return cardBrand && cardLast4 ? { brand: cardBrand, last4: cardLast4 } : null;
  }
  get createdAt(): Date {
    return this.order.createdAt;
  }
  get authorizedAt(): Date | null {
    return this.order.authorizedAt;
  }
  get processedAt(): Date | null {
    return this.order.processedAt;
  }
  get cancelledAt(): Date | null {
    return this.order.cancelledAt;
  }
}

export function toOrderModel(order: Order): OrderModel {
  return new OrderNode(order);
}

/** The columns each field of Refund reads. */
export const REFUND_FIELD_COLUMNS: ModelColumns<RefundModel, Refund> = {
  id: ['id'],
  orderId: ['orderId'],
  merchantId: ['merchantId'],
  referenceId: ['referenceId'],
  amount: ['amountMinor', 'currency'],
  state: ['state'],
  failureReason: ['failureReason'],
  createdAt: ['createdAt'],
  completedAt: ['completedAt'],
  order: ['orderId'],
};

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
