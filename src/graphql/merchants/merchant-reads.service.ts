import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Merchant } from '../../auth/merchant.entity';
import { Connection } from '../common/connection.model';
import { keysetPage } from '../common/keyset-page';
import { PageArgs } from '../common/page.args';
import { EntityRows } from '../../common/database/reads/entity-rows';
import { ReadQuery } from '../../common/database/reads/read-query';
import { MerchantModel } from './merchant.model';

/** Merchants for admin dashboards (no signing secrets, no notify URL). */
@Injectable()
export class MerchantReads {
  private readonly merchantRows: EntityRows<Merchant>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.merchantRows = new EntityRows(dataSource, Merchant, ['id', 'name', 'remittanceCurrency', 'createdAt']);
  }

  page(args: PageArgs): Promise<Connection<MerchantModel>> {
    const query = new ReadQuery(this.dataSource, Merchant, 'm');
    return keysetPage(query, this.merchantRows, args, (m) => ({ id: m.id, name: m.name, remittanceCurrency: m.remittanceCurrency, createdAt: m.createdAt }));
  }
}
