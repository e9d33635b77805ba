import { Field, ID, ObjectType } from '@nestjs/graphql';
import { OrderState } from '../../orders/order-state';
import { OrderSource } from '../../orders/order.entity';
import { RefundState } from '../../orders/refund.entity';
import { ConnectionOf } from '../common/connection.model';
import { OrderSourceValues, OrderStateValues, RefundStateValues } from '../common/enums';
import { Money } from '../common/money.model';
import { EXPECTED_REFUNDS_PER_ORDER, LOADED_FIELD_COST } from '../limits/graphql-limits';
import { SessionModel } from '../sessions/session.model';

@ObjectType('Card', { description: 'Scheme and last four digits only; nothing else of a card is stored.' })
export class CardModel {
  @Field() brand: string;
  @Field() last4: string;
}

@ObjectType('Order', { description: 'An order of a signed checkout or of a completed session.' })
export class OrderModel {
  @Field(() => ID) id: string;
  @Field(() => ID) merchantId: string;
  @Field(() => OrderSourceValues) source: OrderSource;
  @Field({ description: 'The checkout ReferenceId, or the session\'s MerchantReference.' }) referenceId: string;
  @Field(() => ID, { nullable: true }) sessionId: string | null;
  @Field(() => OrderStateValues) state: OrderState;
  @Field() underReview: boolean;
  @Field() paymentMethod: string;
  @Field(() => Money, { description: 'ConsumerTotal.' }) total: Money;
  @Field(() => Money, { description: 'Refunds in progress or succeeded: what can no longer be refunded.' }) refunded: Money;
  @Field(() => Date, { nullable: true, description: 'Capture deadline of a PaymentAuthorized order (7 days after authorization); null in other states.' })
  captureDeadline: Date | null;
  @Field(() => CardModel, { nullable: true }) card: CardModel | null;
  @Field() createdAt: Date;
  @Field(() => Date, { nullable: true }) authorizedAt: Date | null;
  @Field(() => Date, { nullable: true }) processedAt: Date | null;
  @Field(() => Date, { nullable: true }) cancelledAt: Date | null;

  // Related objects: filled by Relations when the query asks for them.
  @Field(() => [RefundModel], { description: 'Oldest first.', complexity: ({ childComplexity }) => LOADED_FIELD_COST + EXPECTED_REFUNDS_PER_ORDER * childComplexity })
  refunds?: RefundModel[];

  @Field(() => SessionModel, { nullable: true, description: 'The session this order completed, if it came from one.', complexity: ({ childComplexity }) => LOADED_FIELD_COST + childComplexity })
  session?: SessionModel | null;
}

@ObjectType('Refund')
export class RefundModel {
  @Field(() => ID) id: string;
  @Field(() => ID) orderId: string;
  @Field(() => ID) merchantId: string;
  @Field({ description: 'The merchant\'s idempotency key of this refund, unique per order.' }) referenceId: string;
  @Field(() => Money) amount: Money;
  @Field(() => RefundStateValues) state: RefundState;
  @Field(() => String, { nullable: true }) failureReason: string | null;
  @Field() createdAt: Date;
  @Field(() => Date, { nullable: true }) completedAt: Date | null;

  @Field(() => OrderModel, { complexity: ({ childComplexity }) => LOADED_FIELD_COST + childComplexity, description: 'Filled by Relations when asked for.' })
  order?: OrderModel;
}

@ObjectType()
export class OrderConnection extends ConnectionOf(OrderModel, 'Order') {}

@ObjectType()
export class RefundConnection extends ConnectionOf(RefundModel, 'Refund') {}
