import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import { AuthModule } from '../auth/auth.module';
import { AppConfig } from '../common/config/app-config';
import { OrdersModule } from '../orders/orders.module';
import { SessionModule } from '../session/session.module';
import { TaxModule } from '../tax/tax.module';
import { GqlBasicAuthGuard } from './auth/gql-basic-auth.guard';
import { graphqlOptions } from './graphql.options';
import { MerchantResolver } from './merchants/merchant.resolver';
import { OrderResolver } from './orders/order.resolver';
import { RefundResolver } from './orders/refund.resolver';
import { DashboardReadsModule } from './read/dashboard-reads.module';
import { LoaderFactory } from './read/request-loaders';
import { RemittanceResolver } from './remittances/remittance.resolver';
import { SessionResolver } from './sessions/session.resolver';
import { TaxQuoteResolver } from './tax/tax-quote.resolver';
import { TotalsResolver } from './totals/totals.resolver';

/** GraphQL for internal dashboards at /graphql, over the same services as the REST interfaces (issue #6). */
@Module({
  imports: [
    GraphQLModule.forRootAsync<ApolloDriverConfig>({
      driver: ApolloDriver,
      imports: [DashboardReadsModule],
      inject: [AppConfig, LoaderFactory],
      useFactory: graphqlOptions,
    }),
    AuthModule,
    SessionModule,
    OrdersModule,
    TaxModule,
    DashboardReadsModule,
  ],
  providers: [GqlBasicAuthGuard, SessionResolver, OrderResolver, RefundResolver, TaxQuoteResolver, MerchantResolver, TotalsResolver, RemittanceResolver],
})
export class GraphqlApiModule {}
