import { OrderState } from '../orders/order-state';

/** The event types of DESIGN.md section 7, plus TEST (sent on demand). */
export enum NotificationType {
  SessionCompleted = 'SESSION_COMPLETED',
  SessionFailed = 'SESSION_FAILED',
  OrderAuthorized = 'ORDER_AUTHORIZED',
  OrderProcessed = 'ORDER_PROCESSED',
  OrderProcessingFailed = 'ORDER_PROCESSING_FAILED',
  OrderDeclined = 'ORDER_DECLINED',
  OrderCancelled = 'ORDER_CANCELLED',
  OrderCaptureDeadlineApproaching = 'ORDER_CAPTURE_DEADLINE_APPROACHING',
  RefundSucceeded = 'REFUND_SUCCEEDED',
  RefundFailed = 'REFUND_FAILED',
  Test = 'TEST',
}

/**
 * Pending: waiting for its first attempt, retrying, or in flight (then it holds a lease).
 * Delivered: a 2xx answer arrived. Failed: the retry schedule ran out. NoTarget: neither the order's
 * Notify nor the merchant had a URL when it was due (a redelivery after setting one sends it).
 */
export enum NotificationState {
  Pending = 'Pending',
  Delivered = 'Delivered',
  Failed = 'Failed',
  NoTarget = 'NoTarget',
}

/** What an event is about; also the key of the resource in the JSON body ("Order": {…}). */
export type ResourceType = 'Order' | 'Refund' | 'Session' | 'Test';

const ORDER_STATE_EVENTS: Partial<Record<OrderState, NotificationType>> = {
  [OrderState.PaymentAuthorized]: NotificationType.OrderAuthorized,
  [OrderState.Processed]: NotificationType.OrderProcessed,
  [OrderState.ProcessingFailed]: NotificationType.OrderProcessingFailed,
  [OrderState.Declined]: NotificationType.OrderDeclined,
  [OrderState.Cancelled]: NotificationType.OrderCancelled,
};

/**
 * The events an order transition causes. Processing and Pending are steps in between and notify
 * nothing. A payment authorized and captured in one step (Capture=true at checkout, funds received
 * for a bank transfer) was never PaymentAuthorized on its own, so it gives ORDER_AUTHORIZED and then
 * ORDER_PROCESSED; a later capture of an authorization gives ORDER_PROCESSED alone.
 */
export function orderEventTypes(wasAuthorized: boolean, to: OrderState): NotificationType[] {
  const type = ORDER_STATE_EVENTS[to];
  if (!type) return [];
  if (to === OrderState.Processed && !wasAuthorized) return [NotificationType.OrderAuthorized, type];
  return [type];
}
