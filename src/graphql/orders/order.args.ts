import { ArgsType, Field, ID, InputType } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import { IsBoolean, IsDate, IsIn, IsOptional, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';
import { OrderState } from '../../orders/order-state';
import { RefundState } from '../../orders/refund.entity';
import { OrderStateValues, RefundStateValues } from '../common/enums';
import { CommonFilter } from '../common/filters.input';
import { PageArgs } from '../common/page.args';

@InputType()
export class OrderFilter extends CommonFilter {
  @Field(() => OrderStateValues, { nullable: true })
  @IsOptional()
  @IsIn(Object.values(OrderStateValues))
  state?: OrderState;

  @Field({ nullable: true, description: 'The checkout ReferenceId or the session\'s MerchantReference.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  referenceId?: string;

  @Field({ nullable: true, description: 'Only PaymentAuthorized orders whose capture deadline is before this instant (capture them soon).' })
  @IsOptional()
  @IsDate()
  captureDeadlineBefore?: Date;

  @Field({ nullable: true, description: 'Only PaymentAuthorized orders whose capture deadline is at or after this instant.' })
  @IsOptional()
  @IsDate()
  captureDeadlineAfter?: Date;

  @Field({ nullable: true, description: 'true: only orders with at least one refund (any state); false: only orders without.' })
  @IsOptional()
  @IsBoolean()
  hasRefunds?: boolean;
}

@ArgsType()
export class OrdersArgs extends PageArgs {
  @Field(() => OrderFilter, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => OrderFilter)
  filter?: OrderFilter;
}

@InputType()
export class RefundFilter extends CommonFilter {
  @Field(() => RefundStateValues, { nullable: true })
  @IsOptional()
  @IsIn(Object.values(RefundStateValues))
  state?: RefundState;

  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  orderId?: string;
}

@ArgsType()
export class RefundsArgs extends PageArgs {
  @Field(() => RefundFilter, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => RefundFilter)
  filter?: RefundFilter;
}

@ArgsType()
export class RefundOrderArgs {
  @Field(() => ID, { description: 'The order to refund (Processed).' })
  @IsString()
  @MaxLength(36)
  id: string;

  @Field({ description: 'Idempotency key per order: the same referenceId and amount again returns the same refund.' })
  @IsString()
  @MaxLength(200)
  referenceId: string;

  @Field({ description: 'Decimal string in the order currency, at most its decimals ("10.00").' })
  @IsString()
  @MaxLength(30)
  amount: string;
}
