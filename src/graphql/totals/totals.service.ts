import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { Principal } from '../../auth/principal';
import { invalidRequest } from '../../common/errors/domain-error';
import { FieldErrorCode } from '../../common/errors/field-error';
import { Order } from '../../orders/order.entity';
import { PaymentSession } from '../../session/session.entity';
import { merchantScope } from '../auth/tenancy';
import { formatMinorSum } from '../common/money.model';
import { SqlDialect } from '../../common/database/reads/sql-dialect';
import { effectiveSessionStateSql } from '../sessions/session-state.sql';
import { OrderTotalModel, SessionTotalModel, TotalsArgs, TotalsModel } from './totals.model';

interface TotalRow {
  effective_state: string;
  currency: string;
  count: number | string;
  amount: string | number | null;
}

/** Dashboard totals: one GROUP BY per table over the range, sums exact (as text from the database). */
@Injectable()
export class TotalsService {
  private readonly dialect: SqlDialect;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.dialect = SqlDialect.of(dataSource);
  }

  async totals(principal: Principal, args: TotalsArgs): Promise<TotalsModel> {
    if (args.from >= args.to) throw invalidRequest([{ Field: 'to', Code: FieldErrorCode.Invalid, Message: 'to must be later than from' }]);
    const scope = merchantScope(principal, args.merchantId);
    if (scope.empty) return { from: args.from, to: args.to, sessions: [], orders: [] };

    const sessions = this.grouped(this.dataSource.getRepository(PaymentSession).createQueryBuilder('s'), effectiveSessionStateSql('s', ':now'), 's.total_amount', scope.merchantId, args)
      .setParameter('now', new Date());
    const orders = this.grouped(this.dataSource.getRepository(Order).createQueryBuilder('o'), 'o.state', 'o.total_minor', scope.merchantId, args);
    return {
      from: args.from,
      to: args.to,
      sessions: (await sessions.getRawMany<TotalRow>()).map((row) => toTotal(row) as SessionTotalModel),
      orders: (await orders.getRawMany<TotalRow>()).map((row) => toTotal(row) as OrderTotalModel),
    };
  }

  private grouped<E extends ObjectLiteral>(
    query: SelectQueryBuilder<E>,
    state: string,
    amount: string,
    merchantId: string | null,
    range: { from: Date; to: Date },
  ): SelectQueryBuilder<E> {
    const alias = query.alias;
    query
      .select(state, 'effective_state')
      .addSelect(`${alias}.currency`, 'currency')
      .addSelect('COUNT(*)', 'count')
      .addSelect(this.dialect.sumAsText(amount), 'amount')
      .where(this.dialect.compareTimestamp(`${alias}.created_at`, '>=', ':from'), { from: range.from })
      .andWhere(this.dialect.compareTimestamp(`${alias}.created_at`, '<', ':to'), { to: range.to })
      .groupBy('effective_state')
      .addGroupBy(`${alias}.currency`)
      .orderBy('effective_state')
      .addOrderBy(`${alias}.currency`);
    if (merchantId) query.andWhere(`${alias}.merchant_id = :merchantId`, { merchantId });
    return query;
  }
}

function toTotal(row: TotalRow) {
  return { state: row.effective_state, currency: row.currency, count: Number(row.count), amount: formatMinorSum(row.amount, row.currency) };
}
