import { Args, Query, Resolver } from '@nestjs/graphql';
import { Principal } from '../../auth/principal';
import { GqlPrincipal } from '../auth/gql-principal.decorator';
import { GraphqlEndpoint } from '../auth/graphql-endpoint.decorator';
import { TotalsArgs, TotalsModel } from './totals.model';
import { TotalsService } from './totals.service';

@Resolver(() => TotalsModel)
@GraphqlEndpoint()
export class TotalsResolver {
  constructor(private readonly totals: TotalsService) {}

  @Query(() => TotalsModel, { name: 'totals', description: 'Sessions and orders created in [from, to), counted and summed by state and currency.' })
  get(@GqlPrincipal() principal: Principal, @Args() args: TotalsArgs): Promise<TotalsModel> {
    return this.totals.totals(principal, args);
  }
}
