import { Args, Query, Resolver } from '@nestjs/graphql';
import { Principal } from '../../auth/principal';
import { toMinorUnits } from '../../common/money/money';
import { TaxQuoteView } from '../../tax/dto/tax-quote-response.dto';
import { TaxQuoteService } from '../../tax/tax-quote.service';
import { GqlPrincipal } from '../auth/gql-principal.decorator';
import { GraphqlEndpoint } from '../auth/graphql-endpoint.decorator';
import { IdArgs } from '../common/id.args';
import { money } from '../common/money.model';
import { TaxQuoteModel } from './tax-quote.model';

@Resolver(() => TaxQuoteModel)
@GraphqlEndpoint()
export class TaxQuoteResolver {
  constructor(private readonly taxQuotes: TaxQuoteService) {}

  @Query(() => TaxQuoteModel, { description: 'A tax quote by id (TAX_QUOTE_NOT_FOUND when it is not the caller\'s).' })
  async taxQuote(@GqlPrincipal() principal: Principal, @Args() { id }: IdArgs): Promise<TaxQuoteModel> {
    return toTaxQuoteModel(await this.taxQuotes.get(principal, id));
  }
}

/**
 * The stored answer carries amounts as JSON numbers made from integer minor units; back to minor units
 * (exact: toMinorUnits reads the number's shortest decimal form) and out as decimal strings.
 */
function toTaxQuoteModel(view: TaxQuoteView): TaxQuoteModel {
  const amount = (major: number) => money(toMinorUnits(major, view.Currency), view.Currency);
  return {
    id: view.Id,
    reference: view.Reference ?? null,
    currency: view.Currency,
    amount: amount(view.Amount),
    taxAmount: amount(view.TaxAmount),
    items: view.Items.map((item) => ({
      id: item.Id,
      sku: item.Sku,
      description: item.Description ?? null,
      taxIncluded: item.TaxIncluded,
      quantity: item.Quantity,
      amount: amount(item.Amount),
      taxCode: item.TaxCode,
      taxAmount: amount(item.TaxAmount),
      taxes: item.Tax.map((line) => ({ name: line.Name, type: line.Type, taxAmount: amount(line.TaxAmount) })),
    })),
    shippingCountry: view.ShippingAddress.Country,
    createdAt: new Date(view.CreatedAt),
  };
}
