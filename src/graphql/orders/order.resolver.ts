import { Args, Context, Info, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { GraphQLResolveInfo } from 'graphql';
import { RequireAccess } from '../../auth/access.decorator';
import { Principal } from '../../auth/principal';
import { CheckoutError, CheckoutErrorCode } from '../../checkout/checkout-errors';
import { decimalToMinorUnits } from '../../common/money/money';
import { Order } from '../../orders/order.entity';
import { OrderService } from '../../orders/order.service';
import { RefundService } from '../../orders/refund.service';
import { GqlPrincipal } from '../auth/gql-principal.decorator';
import { GraphqlEndpoint } from '../auth/graphql-endpoint.decorator';
import { IdArgs } from '../common/id.args';
import { connectionComplexity } from '../common/page.args';
import type { GraphqlContext } from '../graphql-context';
import { selectionAt, selectionOf } from '../read/selection';
import { OrderReads } from './order-reads.service';
import { OrdersArgs, RefundOrderArgs } from './order.args';
import { toOrderModel, toRefundModel } from './order.mapper';
import { OrderConnection, OrderModel, RefundModel } from './order.model';

@Resolver(() => OrderModel)
@GraphqlEndpoint()
export class OrderResolver {
  constructor(
    private readonly orderService: OrderService,
    private readonly refundService: RefundService,
    private readonly reads: OrderReads,
  ) {}

  @Query(() => OrderModel, { description: 'An order by id; another merchant\'s is OrderNotFound.' })
  async order(
    @GqlPrincipal() principal: Principal,
    @Args() { id }: IdArgs,
    @Context() context: GraphqlContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<OrderModel> {
    const order = await this.reads.findVisible(principal, id);
    if (!order) throw new CheckoutError(CheckoutErrorCode.OrderNotFound, 'No order of this merchant has this OrderId');
    return this.withRelations(order, context, info);
  }

  @Query(() => OrderConnection, { description: 'Orders, newest first unless asked otherwise.', complexity: connectionComplexity })
  async orders(
    @GqlPrincipal() principal: Principal,
    @Args() args: OrdersArgs,
    @Context() context: GraphqlContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<OrderConnection> {
    const page = await this.reads.page(principal, args);
    await context.relations.ofOrders(page.edges.map((edge) => edge.node), selectionAt(selectionOf(info), 'edges', 'node'));
    return page;
  }

  @Mutation(() => OrderModel, { description: 'As POST /capture: PaymentAuthorized → Processed; again on a Processed order: the same answer.' })
  @RequireAccess('write')
  async captureOrder(
    @GqlPrincipal() principal: Principal,
    @Args() { id }: IdArgs,
    @Context() context: GraphqlContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<OrderModel> {
    return this.withRelations(await this.orderService.capture(principal.merchantId!, id), context, info);
  }

  @Mutation(() => OrderModel, { description: 'As POST /cancel: voids an authorization (or a payment the shopper has not finished).' })
  @RequireAccess('write')
  async cancelOrder(
    @GqlPrincipal() principal: Principal,
    @Args() { id }: IdArgs,
    @Context() context: GraphqlContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<OrderModel> {
    return this.withRelations(await this.orderService.cancel(principal.merchantId!, id), context, info);
  }

  @Mutation(() => RefundModel, { description: 'As POST /refund: partial and repeated refunds up to the captured total; referenceId makes a retry safe.' })
  @RequireAccess('write')
  async refundOrder(
    @GqlPrincipal() principal: Principal,
    @Args() args: RefundOrderArgs,
    @Context() context: GraphqlContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<RefundModel> {
    const merchantId = principal.merchantId!;
    const order = await this.orderService.require(merchantId, { orderId: args.id });
    const amountMinor = decimalToMinorUnits(args.amount, order.currency);
    if (amountMinor === null || amountMinor <= 0) {
      throw new CheckoutError(CheckoutErrorCode.AmountInvalid, `Amount must be greater than zero with at most the decimals of ${order.currency}`);
    }
    const refund = toRefundModel(await this.refundService.refund(merchantId, order.id, args.referenceId, amountMinor));
    await context.relations.ofRefunds([refund], selectionOf(info));
    return refund;
  }

  private async withRelations(order: Order, context: GraphqlContext, info: GraphQLResolveInfo): Promise<OrderModel> {
    const model = toOrderModel(order);
    await context.relations.ofOrders([model], selectionOf(info));
    return model;
  }
}
