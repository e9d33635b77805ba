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
import { EntityRows } from '../../common/database/reads/entity-rows';
import { allColumns } from '../read/model-columns';
import { ReadQuery } from '../../common/database/reads/read-query';
import { OrdersArgs, RefundsArgs } from './order.args';
import { ORDER_FIELD_COLUMNS, REFUND_FIELD_COLUMNS, toOrderModel, toRefundModel } from './order.mapper';
import { OrderModel, RefundModel } from './order.model';

/** What order and refund reads take: the columns of every field (the sessions page reads only those asked for). */
export const ORDER_COLUMNS = allColumns(ORDER_FIELD_COLUMNS);
export const REFUND_COLUMNS = allColumns(REFUND_FIELD_COLUMNS);
/** An order's refunds are listed oldest first. */
export const REFUND_ORDER = ['createdAt', 'id'] as const satisfies readonly (keyof Refund)[];

const EMPTY = { edges: [], pageInfo: { hasNextPage: false, endCursor: null } };

/** The dashboard's read side of orders and refunds. Reads only; every change goes through OrderService / RefundService. */
@Injectable()
export class OrderReads {
  private readonly orderRows: EntityRows<Order>;
  private readonly refundRows: EntityRows<Refund>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly orders: OrderService,
  ) {
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
    const query = new ReadQuery(this.dataSource, Order, 'o');
    if (scope.merchantId) query.where('o.merchant_id = ?', scope.merchantId);
    applyCommonFilter(query, filter);
    if (filter?.state) query.where('o.state = ?', filter.state);
    if (filter?.referenceId !== undefined) query.where('o.reference_id = ?', filter.referenceId);
    if (filter?.captureDeadlineBefore || filter?.captureDeadlineAfter) {
      query.where('o.state = ? AND o.expires_at IS NOT NULL', OrderState.PaymentAuthorized);
      if (filter.captureDeadlineBefore) query.where('o.expires_at < ?', filter.captureDeadlineBefore);
      if (filter.captureDeadlineAfter) query.where('o.expires_at >= ?', filter.captureDeadlineAfter);
    }
    if (filter?.hasRefunds !== undefined) {
      query.where(`${filter.hasRefunds ? '' : 'NOT '}EXISTS (SELECT 1 FROM order_refund r WHERE r.order_id = o.id)`);
    }
    return keysetPage(query, this.orderRows, args, toOrderModel);
  }

  async refundPage(principal: Principal, args: RefundsArgs): Promise<Connection<RefundModel>> {
    const filter = args.filter;
    const scope = merchantScope(principal, filter?.merchantId);
    if (scope.empty) return EMPTY;
    const query = new ReadQuery(this.dataSource, Refund, 'r');
    if (scope.merchantId) query.where('r.merchant_id = ?', scope.merchantId);
    applyCommonFilter(query, filter);
    if (filter?.state) query.where('r.state = ?', filter.state);
    if (filter?.orderId) query.where('r.order_id = ?', filter.orderId);
    return keysetPage(query, this.refundRows, args, toRefundModel);
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
