import { registerEnumType } from '@nestjs/graphql';
import { OrderState } from '../../orders/order-state';
import { RefundState } from '../../orders/refund.entity';
import { RemittanceLineType } from '../../remittance/remittance-calculator';
import { SessionState } from '../../session/session-state';

/**
 * GraphQL spells enum values in capitals (PAYMENT_AUTHORIZED); each maps to the stored value
 * (PaymentAuthorized), so resolvers and filters work with the domain enums unchanged.
 */
export const OrderStateValues = {
  PENDING: OrderState.Pending,
  PROCESSING: OrderState.Processing,
  PAYMENT_AUTHORIZED: OrderState.PaymentAuthorized,
  PROCESSED: OrderState.Processed,
  PROCESSING_FAILED: OrderState.ProcessingFailed,
  CANCELLED: OrderState.Cancelled,
  DECLINED: OrderState.Declined,
} as const;

export const RefundStateValues = {
  IN_PROGRESS: RefundState.InProgress,
  SUCCEEDED: RefundState.Succeeded,
  FAILED: RefundState.Failed,
} as const;

export const SessionStateValues = {
  CREATED: SessionState.Created,
  PROCESSING: SessionState.Processing,
  REDIRECTED: SessionState.Redirected,
  COMPLETED: SessionState.Completed,
  FAILED: SessionState.Failed,
  CANCELLED: SessionState.Cancelled,
  EXPIRED: SessionState.Expired,
} as const;

export const OrderSourceValues = { CHECKOUT: 'checkout', SESSION: 'session' } as const;

export const RemittanceLineTypeValues = {
  PAYMENT: RemittanceLineType.Payment,
  REFUND: RemittanceLineType.Refund,
} as const;

registerEnumType(SessionStateValues, {
  name: 'SessionState',
  description: 'A CREATED session past its expiry is shown (and filtered) as EXPIRED, as the Session interface shows it.',
});
registerEnumType(OrderStateValues, { name: 'OrderState' });
registerEnumType(RefundStateValues, { name: 'RefundState' });
registerEnumType(OrderSourceValues, { name: 'OrderSource', description: 'Whether a signed checkout or a payment session created the order.' });
registerEnumType(RemittanceLineTypeValues, { name: 'RemittanceLineType', description: 'A settled payment (an order), or a refund netted as a negative line.' });
