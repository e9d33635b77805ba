/**
 * The one order state machine (DESIGN.md section 5), shared by checkout orders and session orders.
 * UnderReview is a separate flag, not a state. The Session interface shows states upper-case.
 */
export enum OrderState {
  Pending = 'Pending',
  Processing = 'Processing',
  PaymentAuthorized = 'PaymentAuthorized',
  Processed = 'Processed',
  ProcessingFailed = 'ProcessingFailed',
  Cancelled = 'Cancelled',
  Declined = 'Declined',
}

/**
 * Allowed moves. A new order starts in Processing (the authorization is under way at the processor).
 * Pending: waiting for the shopper (3-D Secure, redirect approval, bank transfer funds).
 * A capture claims a PaymentAuthorized order by moving it to Processing, so a racing cancel or a second
 * capture sees that and never reaches the processor.
 * ProcessingFailed → Processing is a new attempt of a declined checkout under the same ReferenceId;
 * every other end state is final.
 */
const TRANSITIONS: Readonly<Record<OrderState, readonly OrderState[]>> = {
  [OrderState.Pending]: [OrderState.PaymentAuthorized, OrderState.Processed, OrderState.ProcessingFailed, OrderState.Cancelled, OrderState.Declined],
  [OrderState.Processing]: [OrderState.Pending, OrderState.PaymentAuthorized, OrderState.Processed, OrderState.ProcessingFailed, OrderState.Declined],
  [OrderState.PaymentAuthorized]: [OrderState.Processing, OrderState.Cancelled, OrderState.Declined],
  [OrderState.Processed]: [],
  [OrderState.ProcessingFailed]: [OrderState.Processing],
  [OrderState.Cancelled]: [],
  [OrderState.Declined]: [],
};

export function canTransition(from: OrderState, to: OrderState): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Authorized in the checkout answer: the money is held or taken. */
export const isAuthorized = (state: OrderState) => state === OrderState.PaymentAuthorized || state === OrderState.Processed;

/** Session interface spelling: PAYMENTAUTHORIZED, PROCESSINGFAILED … */
export const sessionSpelling = (state: OrderState) => state.toUpperCase();
