import { ArgsType, Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { IsDate, IsOptional, IsUUID } from 'class-validator';
import { OrderState } from '../../orders/order-state';
import { SessionState } from '../../session/session-state';
import { OrderStateValues, SessionStateValues } from '../common/enums';

@ArgsType()
export class TotalsArgs {
  @Field({ description: 'Created at or after this instant.' })
  @IsDate()
  from: Date;

  @Field({ description: 'Created before this instant (exclusive).' })
  @IsDate()
  to: Date;

  @Field(() => ID, { nullable: true, description: 'Admins: only this merchant (default: all). Merchant users always get their own.' })
  @IsOptional()
  @IsUUID()
  merchantId?: string;
}

@ObjectType('SessionTotal')
export class SessionTotalModel {
  @Field(() => SessionStateValues) state: SessionState;
  @Field() currency: string;
  @Field(() => Int) count: number;
  @Field({ description: 'Σ TotalAmount, exact, in the currency\'s decimals.' }) amount: string;
}

@ObjectType('OrderTotal')
export class OrderTotalModel {
  @Field(() => OrderStateValues) state: OrderState;
  @Field() currency: string;
  @Field(() => Int) count: number;
  @Field({ description: 'Σ ConsumerTotal, exact, in the currency\'s decimals.' }) amount: string;
}

@ObjectType('Totals', { description: 'Counts and amounts by state and currency of what was created in [from, to).' })
export class TotalsModel {
  @Field() from: Date;
  @Field() to: Date;
  @Field(() => [SessionTotalModel]) sessions: SessionTotalModel[];
  @Field(() => [OrderTotalModel]) orders: OrderTotalModel[];
}
