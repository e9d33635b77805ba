import { Args, Context, Info, Query, Resolver } from '@nestjs/graphql';
import type { GraphQLResolveInfo } from 'graphql';
import { Principal } from '../../auth/principal';
import { CheckoutError, CheckoutErrorCode } from '../../checkout/checkout-errors';
import { GqlPrincipal } from '../auth/gql-principal.decorator';
import { GraphqlEndpoint } from '../auth/graphql-endpoint.decorator';
import { IdArgs } from '../common/id.args';
import { connectionComplexity } from '../common/page.args';
import type { GraphqlContext } from '../graphql-context';
import { selectionAt, selectionOf } from '../read/selection';
import { RemittanceReads } from './remittance-reads.service';
import { RemittancesArgs } from './remittance.args';
import { toRemittanceModel } from './remittance.mapper';
import { RemittanceConnection, RemittanceModel } from './remittance.model';

@Resolver(() => RemittanceModel)
@GraphqlEndpoint()
export class RemittanceResolver {
  constructor(private readonly reads: RemittanceReads) {}

  @Query(() => RemittanceModel, { description: 'A remittance by id, with its report\'s lines if asked for; another merchant\'s is RemittanceNotFound.' })
  async remittance(
    @GqlPrincipal() principal: Principal,
    @Args() { id }: IdArgs,
    @Context() context: GraphqlContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<RemittanceModel> {
    const remittance = await this.reads.findVisible(principal, id);
    if (!remittance) throw new CheckoutError(CheckoutErrorCode.RemittanceNotFound, 'No remittance of this merchant has this RemittanceId');
    const model = toRemittanceModel(remittance);
    await context.relations.ofRemittances([model], selectionOf(info));
    return model;
  }

  @Query(() => RemittanceConnection, { description: 'Remittances, newest first unless asked otherwise.', complexity: connectionComplexity })
  async remittances(
    @GqlPrincipal() principal: Principal,
    @Args() args: RemittancesArgs,
    @Context() context: GraphqlContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<RemittanceConnection> {
    const page = await this.reads.page(principal, args);
    await context.relations.ofRemittances(page.edges.map((edge) => edge.node), selectionAt(selectionOf(info), 'edges', 'node'));
    return page;
  }
}
