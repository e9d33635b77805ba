import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { Money } from '../common/money.model';

@ObjectType('TaxLine')
export class TaxLineModel {
  @Field() name: string;
  @Field({ description: 'sales, vat, gst …' }) type: string;
  @Field(() => Money) taxAmount: Money;
}

@ObjectType('TaxQuoteItem')
export class TaxQuoteItemModel {
  @Field(() => ID) id: string;
  @Field() sku: string;
  @Field(() => String, { nullable: true }) description: string | null;
  @Field() taxIncluded: boolean;
  @Field(() => Int) quantity: number;
  @Field(() => Money, { description: 'Net line amount (tax extracted when taxIncluded).' }) amount: Money;
  @Field() taxCode: string;
  @Field(() => Money) taxAmount: Money;
  @Field(() => [TaxLineModel]) taxes: TaxLineModel[];
}

@ObjectType('TaxQuote', { description: 'A stored tax quote (/v1/tax/quote), as it was answered.' })
export class TaxQuoteModel {
  @Field(() => ID) id: string;
  @Field(() => String, { nullable: true }) reference: string | null;
  @Field() currency: string;
  @Field(() => Money, { description: 'Σ item amounts (net).' }) amount: Money;
  @Field(() => Money) taxAmount: Money;
  @Field(() => [TaxQuoteItemModel]) items: TaxQuoteItemModel[];
  @Field({ description: 'Country of the shipping address.' }) shippingCountry: string;
  @Field() createdAt: Date;
}
