import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { SessionState } from '../../session/session-state';
import { ConnectionOf } from '../common/connection.model';
import { SessionStateValues } from '../common/enums';
import { Money } from '../common/money.model';
import { LOADED_FIELD_COST } from '../limits/graphql-limits';
import { OrderModel } from '../orders/order.model';

@ObjectType('SessionItem')
export class SessionItemModel {
  @Field() name: string;
  @Field(() => Money, { description: 'Price of one unit.' }) amount: Money;
  @Field(() => Int) quantity: number;
}

@ObjectType('SessionDiscount')
export class SessionDiscountModel {
  @Field() name: string;
  @Field(() => Money) amount: Money;
}

@ObjectType('BillingProfile', { description: 'The shopper billing data of a session (birth date and national identifier are not shown here).' })
export class BillingProfileModel {
  @Field(() => ID) id: string;
  @Field(() => String, { nullable: true }) reference: string | null;
  @Field() name: string;
  @Field() email: string;
  @Field(() => String, { nullable: true }) company: string | null;
  @Field() city: string;
  @Field(() => String, { nullable: true }) region: string | null;
  @Field({ description: 'ISO 3166-1 alpha-2.' }) country: string;
  @Field(() => String, { nullable: true }) postcode: string | null;
}

@ObjectType('Session', { description: 'A payment session (the Session interface), amounts exact.' })
export class SessionModel {
  @Field(() => ID) id: string;
  @Field(() => ID) merchantId: string;
  @Field() merchantReference: string;
  @Field(() => SessionStateValues) state: SessionState;
  @Field() currency: string;
  @Field(() => Money, { description: 'TotalAmount: tax + shipping + duty + items − discounts.' }) totalAmount: Money;
  @Field(() => Money, { nullable: true }) taxAmount: Money | null;
  @Field(() => Money, { nullable: true }) shippingAmount: Money | null;
  @Field(() => Money, { nullable: true }) dutyAmount: Money | null;
  @Field(() => [SessionItemModel]) items: SessionItemModel[];
  @Field(() => [SessionDiscountModel]) discounts: SessionDiscountModel[];
  @Field() autoCapture: boolean;
  @Field() viaAgent: boolean;
  @Field(() => ID, { nullable: true }) taxQuoteId: string | null;
  @Field(() => ID) billingProfileId: string;
  @Field() expiresAt: Date;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;

  // Related objects: filled by Relations when the query asks for them.
  @Field(() => BillingProfileModel, { complexity: ({ childComplexity }) => LOADED_FIELD_COST + childComplexity })
  billingProfile?: BillingProfileModel;

  @Field(() => OrderModel, { nullable: true, description: 'The order the session completed into, if any.', complexity: ({ childComplexity }) => LOADED_FIELD_COST + childComplexity })
  order?: OrderModel | null;
}

@ObjectType()
export class SessionConnection extends ConnectionOf(SessionModel, 'Session') {}
