import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Principal } from '../../auth/principal';
import { RemittanceLine } from '../../remittance/remittance-line.entity';
import { Remittance } from '../../remittance/remittance.entity';
import { Report } from '../../remittance/report.entity';
import { merchantScope } from '../auth/tenancy';
import { Connection } from '../common/connection.model';
import { applyCommonFilter } from '../common/filters.input';
import { keysetPage } from '../common/keyset-page';
import { EntityRows } from '../../common/database/reads/entity-rows';
import { ReadQuery } from '../../common/database/reads/read-query';
import { RemittancesArgs } from './remittance.args';
import { toRemittanceModel } from './remittance.mapper';
import { RemittanceModel } from './remittance.model';

/** The columns toRemittanceModel reads (not the state: every remittance is Completed). */
const REMITTANCE_COLUMNS = [
  'id', 'merchantId', 'currency', 'periodFrom', 'periodTo', 'grossMinor', 'refundsMinor', 'feesMinor', 'remittedMinor', 'lineCount', 'createdAt',
] as const satisfies readonly (keyof Remittance)[];
const LINE_COLUMNS = [
  'remittanceId', 'lineType', 'orderId', 'refundId', 'merchantReference', 'occurredAt', 'consumerMinor', 'consumerCurrency', 'rate',
  'rateOfferId', 'grossMinor', 'feeMinor', 'remittedMinor',
] as const satisfies readonly (keyof RemittanceLine)[];
const REPORT_COLUMNS = ['id', 'remittanceId'] as const satisfies readonly (keyof Report)[];

const EMPTY = { edges: [], pageInfo: { hasNextPage: false, endCursor: null } };

/**
 * The dashboard's read side of remittances, their lines and report ids. Reads only; remittances are
 * made by RemittanceService, and the reports API (ReportService) reads the same tables.
 */
@Injectable()
export class RemittanceReads {
  private readonly remittanceRows: EntityRows<Remittance>;
  private readonly lineRows: EntityRows<RemittanceLine>;
  private readonly reportRows: EntityRows<Report>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.remittanceRows = new EntityRows(dataSource, Remittance, REMITTANCE_COLUMNS);
    this.lineRows = new EntityRows(dataSource, RemittanceLine, LINE_COLUMNS);
    this.reportRows = new EntityRows(dataSource, Report, REPORT_COLUMNS);
  }

  /** The remittance if this principal may see it: its merchant's users, or an admin. */
  async findVisible(principal: Principal, id: string): Promise<Remittance | null> {
    const [remittance] = await this.remittanceRows.whereIn('id', [id]);
    if (!remittance || (principal.merchantId && remittance.merchantId !== principal.merchantId)) return null;
    return remittance;
  }

  /**
   * Newest first unless asked otherwise. The (merchant_id, currency, period_to) index narrows a
   * merchant's page to its own remittances (one per currency and run), which are then sorted.
   */
  async page(principal: Principal, args: RemittancesArgs): Promise<Connection<RemittanceModel>> {
    const filter = args.filter;
    const scope = merchantScope(principal, filter?.merchantId);
    if (scope.empty) return EMPTY;
    const query = new ReadQuery(this.dataSource, Remittance, 'r');
    if (scope.merchantId) query.where('r.merchant_id = ?', scope.merchantId);
    applyCommonFilter(query, filter);
    return keysetPage(query, this.remittanceRows, args, toRemittanceModel);
  }

  /** The lines of these remittances in report order (the (remittance_id, position) index). */
  linesByRemittanceIds(remittanceIds: readonly string[]): Promise<RemittanceLine[]> {
    return this.lineRows.whereIn('remittanceId', remittanceIds, 'remittance_id, position');
  }

  reportsByRemittanceIds(remittanceIds: readonly string[]): Promise<Report[]> {
    return this.reportRows.whereIn('remittanceId', remittanceIds);
  }
}
