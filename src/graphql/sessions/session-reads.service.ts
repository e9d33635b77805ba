import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Principal } from '../../auth/principal';
import { Order } from '../../orders/order.entity';
import { Refund } from '../../orders/refund.entity';
import { BillingProfile } from '../../session/billing-profile.entity';
import { PaymentSession } from '../../session/session.entity';
import { merchantScope } from '../auth/tenancy';
import { Connection } from '../common/connection.model';
import { applyCommonFilter } from '../common/filters.input';
import { keysetPage } from '../common/keyset-page';
import { ORDER_COLUMNS, REFUND_COLUMNS, REFUND_ORDER } from '../orders/order-reads.service';
import { ORDER_FIELD_COLUMNS, REFUND_FIELD_COLUMNS, toOrderModel, toRefundModel } from '../orders/order.mapper';
import { EntityRows } from '../../common/database/reads/entity-rows';
import { allColumns, columnsFor } from '../read/model-columns';
import { ReadQuery } from '../../common/database/reads/read-query';
import { Selection } from '../read/selection';
import { effectiveSessionStateSql } from './session-state.sql';
import { SessionsArgs } from './session.args';
import { BILLING_PROFILE_FIELD_COLUMNS, SESSION_FIELD_COLUMNS, toBillingProfileModel, toSessionModel } from './session.mapper';
import { SessionModel } from './session.model';

/** What the batched look-ups read (Relations): the columns of every field, as a query asking for them all would. */
const SESSION_COLUMNS = allColumns(SESSION_FIELD_COLUMNS);
const PROFILE_COLUMNS = allColumns(BILLING_PROFILE_FIELD_COLUMNS);

/**
 * The dashboard's read side of sessions: pages and batched look-ups. Reads only; every change goes
 * through SessionService.
 */
@Injectable()
export class SessionReads {
  private readonly sessionRows: EntityRows<PaymentSession>;
  private readonly profileRows: EntityRows<BillingProfile>;
  private readonly orderRows: EntityRows<Order>;
  private readonly refundRows: EntityRows<Refund>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.sessionRows = new EntityRows(dataSource, PaymentSession, SESSION_COLUMNS);
    this.profileRows = new EntityRows(dataSource, BillingProfile, PROFILE_COLUMNS);
    this.orderRows = new EntityRows(dataSource, Order, ORDER_COLUMNS);
    this.refundRows = new EntityRows(dataSource, Refund, REFUND_COLUMNS);
  }

  /**
   * A page of sessions reading only the columns `selection` (what the query asks of each session) needs.
   * The billing profile, the order and the order's refunds, when asked for, come in the same query
   * (joined, the refunds as a JSON array): one round trip, which on MySQL costs the service more than
   * the rows do. Each session has one billing profile and at most one order (UQ_order_session).
   */
  async page(principal: Principal, args: SessionsArgs, selection: Selection | undefined): Promise<Connection<SessionModel>> {
    const filter = args.filter;
    const scope = merchantScope(principal, filter?.merchantId);
    if (scope.empty) return { edges: [], pageInfo: { hasNextPage: false, endCursor: null } };
    const now = new Date();
    const query = new ReadQuery(this.dataSource, PaymentSession, 's');
    const dialect = query.dialect;
    if (scope.merchantId) query.where('s.merchant_id = ?', scope.merchantId);
    applyCommonFilter(query, filter);
    if (filter?.merchantReference !== undefined) query.where('s.merchant_reference = ?', filter.merchantReference);
    if (filter?.state) query.where(`${effectiveSessionStateSql('s')} = ?`, now, filter.state);

    const profileSelection = selection?.get('billingProfile');
    const profileRows = profileSelection && this.profileRows.only(columnsFor(BILLING_PROFILE_FIELD_COLUMNS, profileSelection, ['id']));
    // LEFT, not INNER: a missing profile must fail loudly below, not hide its session from the page.
    if (profileRows) query.leftJoin(BillingProfile, 'bp', 'bp.id = s.billing_profile_id').select(profileRows.selection('bp'));
    const orderSelection = selection?.get('order');
    const orderRows = orderSelection && this.orderRows.only(columnsFor(ORDER_FIELD_COLUMNS, orderSelection, ['id']));
    if (orderRows) query.leftJoin(Order, 'o', 'o.session_id = s.id').select(orderRows.selection('o'));
    const refundSelection = orderSelection?.get('refunds');
    const refundRows = refundSelection && this.refundRows.only(columnsFor(REFUND_FIELD_COLUMNS, refundSelection, REFUND_ORDER));
    if (refundRows) query.select(`${refundRows.jsonArray('r', 'r.order_id = o.id', dialect)} AS o_refunds`);

    const sessionRows = this.sessionRows.only(columnsFor(SESSION_FIELD_COLUMNS, selection, ['id', 'createdAt']));
    return keysetPage(query, sessionRows, args, (session, raw) => {
      const model = toSessionModel(session, now);
      if (profileRows) {
        const profile = profileRows.fromJoined(raw, 'bp');
        if (!profile) throw new Error(`Session ${session.id} refers to a missing billing profile`);
        model.billingProfile = toBillingProfileModel(profile);
      }
      if (orderRows) {
        const order = orderRows.fromJoined(raw, 'o');
        model.order = order && toOrderModel(order);
        if (model.order && refundRows) model.order.refunds = refundRows.fromJsonArray(raw.o_refunds, dialect, REFUND_ORDER).map(toRefundModel);
      }
      return model;
    });
  }

  byIds(ids: readonly string[]): Promise<PaymentSession[]> {
    return this.sessionRows.whereIn('id', ids);
  }

  billingProfilesByIds(ids: readonly string[]): Promise<BillingProfile[]> {
    return this.profileRows.whereIn('id', ids);
  }
}
