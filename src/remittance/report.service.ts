import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { CheckoutError, CheckoutErrorCode } from '../checkout/checkout-errors';
import { RemittanceLine } from './remittance-line.entity';
import { Remittance } from './remittance.entity';
import { Report } from './report.entity';
import { reportCsv } from './report-csv';
import { reportDocumentView, ReportDocumentView, ReportSummaryView, reportSummaryView } from './report.views';

export type ReportFormat = 'csv' | 'json';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A merchant's settlement reports: the list, and one report with its lines as JSON or CSV. */
@Injectable()
export class ReportService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Newest first. */
  async list(merchantId: string): Promise<{ Reports: ReportSummaryView[] }> {
    const reports = await this.dataSource.getRepository(Report).find({ where: { merchantId }, order: { createdAt: 'DESC', id: 'DESC' } });
    const remittances = new Map<string, Remittance>();
    for (let i = 0; i < reports.length; i += 500) {
      const ids = reports.slice(i, i + 500).map((report) => report.remittanceId);
      for (const remittance of await this.dataSource.getRepository(Remittance).findBy({ id: In(ids) })) remittances.set(remittance.id, remittance);
    }
    return { Reports: reports.map((report) => reportSummaryView(report, remittances.get(report.remittanceId)!)) };
  }

  /** Another merchant's report, or an unknown id, is ReportNotFound (ids do not leak). */
  async document(merchantId: string, reportId: string): Promise<ReportDocumentView> {
    const report = UUID.test(reportId) ? await this.dataSource.getRepository(Report).findOneBy({ id: reportId.toLowerCase(), merchantId }) : null;
    if (!report) throw new CheckoutError(CheckoutErrorCode.ReportNotFound, 'No report of this merchant has this ReportId');
    const remittance = await this.dataSource.getRepository(Remittance).findOneByOrFail({ id: report.remittanceId });
    const lines = await this.dataSource.getRepository(RemittanceLine).find({ where: { remittanceId: remittance.id }, order: { position: 'ASC' } });
    return reportDocumentView(report, remittance, lines);
  }

  async csv(merchantId: string, reportId: string): Promise<string> {
    return reportCsv((await this.document(merchantId, reportId)).Lines);
  }
}
