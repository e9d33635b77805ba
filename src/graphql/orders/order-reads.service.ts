import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Principal } from '../../auth/principal';
import { OrderState } from '../../orders/order-state';
import { Order } from '../../orders/order.entity';
import { OrderService } from '../../orders/order.service';
import { Refund } from '../../orders/refund.entity';
import { merchantScope } from '../auth/tenancy';
import { Connection } from '../common/connection.model';
import { applyCommonFilter } from '../common/filters.input';
import { keysetPage } from '../common/keyset-page';
import { SqlDialect } from '../common/sql-dialect';
import { EntityRows } from '../read/entity-rows';
import { OrdersArgs, RefundsArgs } from './order.args';
import { toOrderModel, toRefundModel } from './order.mapper';
import { OrderModel, RefundModel } from './order.model';

/** The columns toOrderModel reads: not the request details, answers and tokens (less to read and parse). */
export const ORDER_COLUMNS = [
  'id', 'merchantId', 'source', 'referenceId', 'sessionId', 'state', 'underReview', 'paymentMethod', 'currency', 'totalMinor',
  'refundedMinor', 'expiresAt', 'cardBrand', 'cardLast4', 'createdAt', 'authorizedAt', 'processedAt', 'cancelledAt',
] as const satisfies readonly (keyof Order)[];
const REFUND_COLUMNS = [
  'id', 'orderId', 'merchantId', 'referenceId', 'amountMinor', 'currency', 'state', 'failureReason', 'createdAt', 'completedAt',
] as const satisfies readonly (keyof Refund)[];

const EMPTY = { edges: [], pageInfo: { hasNextPage: false, endCursor: null } };

/** The dashboard's read side of orders and refunds. Reads only; every change goes through OrderService / RefundService. */
@Injectable()
export class OrderReads {
  private readonly dialect: SqlDialect;
  private readonly orderRows: EntityRows<Order>;
  private readonly refundRows: EntityRows<Refund>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly orders: OrderService,
  ) {
    this.dialect = SqlDialect.of(dataSource);
    this.orderRows = new EntityRows(dataSource, Order, ORDER_COLUMNS);
    this.refundRows = new EntityRows(dataSource, Refund, REFUND_COLUMNS);
  }

  /** The order if this principal may see it: OrderService's merchant look-up, any order for admins. */
  findVisible(principal: Principal, id: string): Promise<Order | null> {
    if (principal.merchantId) return this.orders.find(principal.merchantId, { orderId: id });
    return this.dataSource.getRepository(Order).findOneBy({ id });
  }

  async page(principal: Principal, args: OrdersArgs): Promise<Connection<OrderModel>> {
    const filter = args.filter;
    const scope = merchantScope(principal, filter?.merchantId);
    if (scope.empty) return EMPTY;
    const query = this.dataSource.getRepository(Order).createQueryBuilder('o');
    if (scope.merchantId) query.andWhere('o.merchant_id = :merchantId', { merchantId: scope.merchantId });
    applyCommonFilter(query, filter, this.dialect);
    if (filter?.state) query.andWhere('o.state = :state', { state: filter.state });
    if (filter?.referenceId !== undefined) query.andWhere('o.reference_id = :referenceId', { referenceId: filter.referenceId });
    if (filter?.captureDeadlineBefore || filter?.captureDeadlineAfter) {
      query.andWhere('o.state = :authorized AND o.expires_at IS NOT NULL', { authorized: OrderState.PaymentAuthorized });
      if (filter.captureDeadlineBefore) query.andWhere('o.expires_at < :deadlineBefore', { deadlineBefore: filter.captureDeadlineBefore });
      if (filter.captureDeadlineAfter) query.andWhere('o.expires_at >= :deadlineAfter', { deadlineAfter: filter.captureDeadlineAfter });
    }
    if (filter?.hasRefunds !== undefined) {
      query.andWhere(`${filter.hasRefunds ? '' : 'NOT '}EXISTS (SELECT 1 FROM order_refund r WHERE r.order_id = o.id)`);
    }
    return keysetPage(query, this.orderRows, args, this.dialect, toOrderModel);
  }

  async refundPage(principal: Principal, args: RefundsArgs): Promise<Connection<RefundModel>> {
    const filter = args.filter;
    const scope = merchantScope(principal, filter?.merchantId);
    if (scope.empty) return EMPTY;
    const query = this.dataSource.getRepository(Refund).createQueryBuilder('r');
    if (scope.merchantId) query.andWhere('r.merchant_id = :merchantId', { merchantId: scope.merchantId });
    applyCommonFilter(query, filter, this.dialect);
    if (filter?.state) query.andWhere('r.state = :state', { state: filter.state });
    if (filter?.orderId) query.andWhere('r.order_id = :orderId', { orderId: filter.orderId });
    return keysetPage(query, this.refundRows, args, this.dialect, toRefundModel);
  }

  byIds(ids: readonly string[]): Promise<Order[]> {
    return this.orderRows.whereIn('id', ids);
  }

  bySessionIds(sessionIds: readonly string[]): Promise<Order[]> {
    return this.orderRows.whereIn('sessionId', sessionIds);
  }

  refundsByOrderIds(orderIds: readonly string[]): Promise<Refund[]> {
    return this.refundRows.whereIn('orderId', orderIds, 'created_at, id');
  }
}
