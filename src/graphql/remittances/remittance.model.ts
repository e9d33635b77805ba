import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { RemittanceLineType } from '../../remittance/remittance-calculator';
import { ConnectionOf } from '../common/connection.model';
import { RemittanceLineTypeValues } from '../common/enums';
import { Money } from '../common/money.model';
import { EXPECTED_LINES_PER_REMITTANCE, LOADED_FIELD_COST } from '../limits/graphql-limits';

@ObjectType('RemittanceLine', { description: 'One settled order (PAYMENT) or refund (REFUND): a line of the settlement report.' })
export class RemittanceLineModel {
  @Field(() => RemittanceLineTypeValues) lineType: RemittanceLineType;
  @Field(() => ID) orderId: string;
  @Field(() => ID, { nullable: true, description: 'Set on a REFUND line.' }) refundId: string | null;
  @Field({ description: 'The checkout ReferenceId or the session\'s MerchantReference.' }) merchantReference: string;
  @Field({ description: 'When the order was processed or the refund succeeded.' }) occurredAt: Date;
  @Field(() => Money, { description: 'In the consumer\'s currency; negative on a refund.' }) consumerAmount: Money;
  @Field({ description: 'Units of the consumer currency per one unit of the remittance currency, an exact decimal string.' }) rate: string;
  @Field(() => ID, { nullable: true, description: 'The guaranteed rate offer the checkout used; null when the reference rate was applied.' })
  rateOfferId: string | null;
  @Field(() => Money, { description: 'consumerAmount / rate in the remittance currency, rounded half-up, before the fee.' }) gross: Money;
  @Field(() => Money, { description: 'In the remittance currency; 0 on a refund.' }) fee: Money;
  @Field(() => Money, { description: 'gross − fee, in the remittance currency.' }) remitted: Money;
}

@ObjectType('Remittance', { description: 'What one remittance run settled for one merchant in one remittance currency.' })
export class RemittanceModel {
  @Field(() => ID) id: string;
  @Field(() => ID) merchantId: string;
  @Field({ description: 'The remittance currency (ISO 4217); every amount below is in it.' }) currency: string;
  @Field({ description: 'The previous remittance\'s periodTo for this merchant and currency (or the earliest line, for the first).' }) periodFrom: Date;
  @Field({ description: 'The run\'s cut-off: orders processed and refunds completed up to this time.' }) periodTo: Date;
  @Field(() => Money, { description: 'The payments converted to the remittance currency, before fees.' }) gross: Money;
  @Field(() => Money) fees: Money;
  @Field(() => Money, { description: 'The refunds converted to the remittance currency (a positive amount).' }) refunds: Money;
  @Field(() => Money, { description: 'gross − refunds − fees; negative when the merchant owes it.' }) remitted: Money;
  @Field(() => Int) lineCount: number;
  @Field() createdAt: Date;

  // Filled by Relations when the query asks for them.
  @Field(() => ID, { description: 'The settlement report of this remittance (GET /v2.22/reports/{ReportId}).', complexity: LOADED_FIELD_COST })
  reportId?: string;

  @Field(() => [RemittanceLineModel], {
    description: 'The report\'s lines: payments, then refunds, each by time. Ask for them on one remittance, or on a few at a time.',
    complexity: ({ childComplexity }) => LOADED_FIELD_COST + EXPECTED_LINES_PER_REMITTANCE * childComplexity,
  })
  lines?: RemittanceLineModel[];
}

@ObjectType()
export class RemittanceConnection extends ConnectionOf(RemittanceModel, 'Remittance') {}
