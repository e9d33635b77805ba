import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, FindOptionsSelect, In } from 'typeorm';
import { Principal } from '../../auth/principal';
import { BillingProfile } from '../../session/billing-profile.entity';
import { PaymentSession } from '../../session/session.entity';
import { merchantScope } from '../auth/tenancy';
import { Connection } from '../common/connection.model';
import { applyCommonFilter } from '../common/filters.input';
import { keysetPage } from '../common/keyset-page';
import { SqlDialect } from '../common/sql-dialect';
import { effectiveSessionStateSql } from './session-state.sql';
import { SessionsArgs } from './session.args';
import { toSessionModel } from './session.mapper';
import { SessionModel } from './session.model';

/** The columns toSessionModel reads: not the URLs, locks and flags the dashboard does not show (less to hydrate). */
const SESSION_COLUMNS = [
  'id', 'merchantId', 'merchantReference', 'state', 'currency', 'totalAmount', 'taxAmount', 'shipping', 'items', 'discounts',
  'autoCapture', 'viaAgent', 'taxQuoteId', 'billingProfileId', 'expiresAt', 'createdAt', 'updatedAt',
] as const satisfies readonly (keyof PaymentSession)[];
const SESSION_SELECT = Object.fromEntries(SESSION_COLUMNS.map((column) => [column, true])) as FindOptionsSelect<PaymentSession>;

/**
 * The dashboard's read side of sessions: pages and batched look-ups. Reads only; every change goes
 * through SessionService.
 */
@Injectable()
export class SessionReads {
  private readonly dialect: SqlDialect;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.dialect = SqlDialect.of(dataSource);
  }

  async page(principal: Principal, args: SessionsArgs): Promise<Connection<SessionModel>> {
    const filter = args.filter;
    const scope = merchantScope(principal, filter?.merchantId);
    if (scope.empty) return { edges: [], pageInfo: { hasNextPage: false, endCursor: null } };
    const now = new Date();
    const query = this.dataSource.getRepository(PaymentSession).createQueryBuilder('s').select(SESSION_COLUMNS.map((column) => `s.${column}`));
    if (scope.merchantId) query.andWhere('s.merchant_id = :merchantId', { merchantId: scope.merchantId });
    applyCommonFilter(query, filter, this.dialect);
    if (filter?.merchantReference !== undefined) query.andWhere('s.merchant_reference = :reference', { reference: filter.merchantReference });
    if (filter?.state) query.andWhere(`${effectiveSessionStateSql('s')} = :state`, { now, state: filter.state });
    return keysetPage(query, args, this.dialect, (session) => toSessionModel(session, now));
  }

  byIds(ids: readonly string[]): Promise<PaymentSession[]> {
    return this.dataSource.getRepository(PaymentSession).find({ select: SESSION_SELECT, where: { id: In([...ids]) } });
  }

  billingProfilesByIds(ids: readonly string[]): Promise<BillingProfile[]> {
    return this.dataSource.getRepository(BillingProfile).findBy({ id: In([...ids]) });
  }
}
