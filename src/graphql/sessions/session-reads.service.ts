import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Principal } from '../../auth/principal';
import { Order } from '../../orders/order.entity';
import { BillingProfile } from '../../session/billing-profile.entity';
import { PaymentSession } from '../../session/session.entity';
import { merchantScope } from '../auth/tenancy';
import { Connection } from '../common/connection.model';
import { applyCommonFilter } from '../common/filters.input';
import { keysetPage } from '../common/keyset-page';
import { SqlDialect } from '../common/sql-dialect';
import { toOrderModel } from '../orders/order.mapper';
import { ORDER_COLUMNS } from '../orders/order-reads.service';
import { EntityRows } from '../read/entity-rows';
import { effectiveSessionStateSql } from './session-state.sql';
import { SessionsArgs } from './session.args';
import { toBillingProfileModel, toSessionModel } from './session.mapper';
import { SessionModel } from './session.model';

/** The columns toSessionModel reads: not the URLs, locks and flags the dashboard does not show (less to hydrate). */
const SESSION_COLUMNS = [
  'id', 'merchantId', 'merchantReference', 'state', 'currency', 'totalAmount', 'taxAmount', 'shipping', 'items', 'discounts',
  'autoCapture', 'viaAgent', 'taxQuoteId', 'billingProfileId', 'expiresAt', 'createdAt', 'updatedAt',
] as const satisfies readonly (keyof PaymentSession)[];
const PROFILE_COLUMNS = [
  'id', 'merchantId', 'reference', 'name', 'email', 'company', 'city', 'region', 'country', 'postcode',
] as const satisfies readonly (keyof BillingProfile)[];

/**
 * The relations a page reads in its own query (joined: one round trip instead of one per relation, which
 * on MySQL costs the service more than the rows do). Each session has one billing profile and at most one order.
 */
export interface SessionPageJoins {
  billingProfile: boolean;
  order: boolean;
}

/**
 * The dashboard's read side of sessions: pages and batched look-ups. Reads only; every change goes
 * through SessionService.
 */
@Injectable()
export class SessionReads {
  private readonly dialect: SqlDialect;
  private readonly sessionRows: EntityRows<PaymentSession>;
  private readonly profileRows: EntityRows<BillingProfile>;
  private readonly orderRows: EntityRows<Order>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.dialect = SqlDialect.of(dataSource);
    this.sessionRows = new EntityRows(dataSource, PaymentSession, SESSION_COLUMNS);
    this.profileRows = new EntityRows(dataSource, BillingProfile, PROFILE_COLUMNS);
    this.orderRows = new EntityRows(dataSource, Order, ORDER_COLUMNS);
  }

  /** A page of sessions, with their billing profile and order filled in when `joins` asks for them. */
  async page(principal: Principal, args: SessionsArgs, joins: SessionPageJoins): Promise<Connection<SessionModel>> {
    const filter = args.filter;
    const scope = merchantScope(principal, filter?.merchantId);
    if (scope.empty) return { edges: [], pageInfo: { hasNextPage: false, endCursor: null } };
    const now = new Date();
    const query = this.dataSource.getRepository(PaymentSession).createQueryBuilder('s');
    if (scope.merchantId) query.andWhere('s.merchant_id = :merchantId', { merchantId: scope.merchantId });
    applyCommonFilter(query, filter, this.dialect);
    if (filter?.merchantReference !== undefined) query.andWhere('s.merchant_reference = :reference', { reference: filter.merchantReference });
    if (filter?.state) query.andWhere(`${effectiveSessionStateSql('s')} = :state`, { now, state: filter.state });
    const joined: string[] = [];
    if (joins.billingProfile) {
      // LEFT, not INNER: a missing profile must fail loudly below, not hide its session from the page.
      query.leftJoin(BillingProfile, 'bp', 'bp.id = s.billing_profile_id');
      joined.push(this.profileRows.selection('bp'));
    }
    if (joins.order) {
      query.leftJoin(Order, 'o', 'o.session_id = s.id');
      joined.push(this.orderRows.selection('o'));
    }
    return keysetPage(
      query,
      this.sessionRows,
      args,
      this.dialect,
      (session, raw) => {
        const model = toSessionModel(session, now);
        if (joins.billingProfile) {
          const profile = this.profileRows.fromJoined(raw, 'bp');
          if (!profile) throw new Error(`Session ${session.id} refers to a missing billing profile`);
          model.billingProfile = toBillingProfileModel(profile);
        }
        if (joins.order) {
          const order = this.orderRows.fromJoined(raw, 'o');
          model.order = order && toOrderModel(order);
        }
        return model;
      },
      joined,
    );
  }

  byIds(ids: readonly string[]): Promise<PaymentSession[]> {
    return this.sessionRows.whereIn('id', ids);
  }

  billingProfilesByIds(ids: readonly string[]): Promise<BillingProfile[]> {
    return this.profileRows.whereIn('id', ids);
  }
}
