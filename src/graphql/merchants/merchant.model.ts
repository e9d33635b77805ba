import { Field, ID, ObjectType } from '@nestjs/graphql';
import { ConnectionOf } from '../common/connection.model';

@ObjectType('Merchant')
export class MerchantModel {
  @Field(() => ID) id: string;
  @Field() name: string;
  @Field({ description: 'ISO 4217 code the merchant is paid out in.' }) remittanceCurrency: string;
  @Field() createdAt: Date;
}

@ObjectType()
export class MerchantConnection extends ConnectionOf(MerchantModel, 'Merchant') {}
