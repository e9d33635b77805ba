import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RateSource, RateTable } from './rate-source';
import { ReferenceRate } from './rate.entities';
import shipped from './reference-rates.json';

/** Imported rates when there are any (`cli rates import`), else the reference table shipped in the repo. */
@Injectable()
export class ReferenceRateSource implements RateSource {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async current(): Promise<RateTable> {
    const rows = await this.dataSource.getRepository(ReferenceRate).find();
    if (rows.length === 0) return { asOf: shipped.asOf, base: shipped.base, rates: shipped.rates };
    return { asOf: rows[0].asOf, base: rows[0].base, rates: Object.fromEntries(rows.map((row) => [row.currency, row.rate])) };
  }
}
