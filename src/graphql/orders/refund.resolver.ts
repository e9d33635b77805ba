import { Args, Context, Info, Query, Resolver } from '@nestjs/graphql';
import type { GraphQLResolveInfo } from 'graphql';
import { Principal } from '../../auth/principal';
import { GqlPrincipal } from '../auth/gql-principal.decorator';
import { GraphqlEndpoint } from '../auth/graphql-endpoint.decorator';
import { connectionComplexity } from '../common/page.args';
import type { GraphqlContext } from '../graphql-context';
import { selectionAt, selectionOf } from '../read/selection';
import { OrderReads } from './order-reads.service';
import { RefundsArgs } from './order.args';
import { RefundConnection, RefundModel } from './order.model';

@Resolver(() => RefundModel)
@GraphqlEndpoint()
export class RefundResolver {
  constructor(private readonly reads: OrderReads) {}

  @Query(() => RefundConnection, { description: 'Refunds, newest first unless asked otherwise.', complexity: connectionComplexity })
  async refunds(
    @GqlPrincipal() principal: Principal,
    @Args() args: RefundsArgs,
    @Context() context: GraphqlContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<RefundConnection> {
    const page = await this.reads.refundPage(principal, args);
    await context.relations.ofRefunds(page.edges.map((edge) => edge.node), selectionAt(selectionOf(info), 'edges', 'node'));
    return page;
  }
}
