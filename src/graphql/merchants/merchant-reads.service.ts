import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Merchant } from '../../auth/merchant.entity';
import { Connection } from '../common/connection.model';
import { keysetPage } from '../common/keyset-page';
import { PageArgs } from '../common/page.args';
import { SqlDialect } from '../common/sql-dialect';
import { EntityRows } from '../read/entity-rows';
import { MerchantModel } from './merchant.model';

/** Merchants for admin dashboards (no signing secrets, no notify URL). */
@Injectable()
export class MerchantReads {
  private readonly dialect: SqlDialect;
  private readonly merchantRows: EntityRows<Merchant>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.dialect = SqlDialect.of(dataSource);
    this.merchantRows = new EntityRows(dataSource, Merchant, ['id', 'name', 'remittanceCurrency', 'createdAt']);
  }

  page(args: PageArgs): Promise<Connection<MerchantModel>> {
    const query = this.dataSource.getRepository(Merchant).createQueryBuilder('m');
    return keysetPage(query, this.merchantRows, args, this.dialect, (m) => ({ id: m.id, name: m.name, remittanceCurrency: m.remittanceCurrency, createdAt: m.createdAt }));
  }
}
