import { Args, Query, Resolver } from '@nestjs/graphql';
import { Principal } from '../../auth/principal';
import { GqlPrincipal } from '../auth/gql-principal.decorator';
import { requireAdmin } from '../auth/tenancy';
import { GraphqlEndpoint } from '../auth/graphql-endpoint.decorator';
import { connectionComplexity, PageArgs } from '../common/page.args';
import { MerchantReads } from './merchant-reads.service';
import { MerchantConnection, MerchantModel } from './merchant.model';

@Resolver(() => MerchantModel)
@GraphqlEndpoint()
export class MerchantResolver {
  constructor(private readonly reads: MerchantReads) {}

  @Query(() => MerchantConnection, { description: 'Admins only (others: NOT_AUTHORIZED).', complexity: connectionComplexity })
  merchants(@GqlPrincipal() principal: Principal, @Args() page: PageArgs): Promise<MerchantConnection> {
    requireAdmin(principal);
    return this.reads.page(page);
  }
}
