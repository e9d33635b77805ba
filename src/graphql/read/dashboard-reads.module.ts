import { Module } from '@nestjs/common';
import { OrdersModule } from '../../orders/orders.module';
import { MerchantReads } from '../merchants/merchant-reads.service';
import { OrderReads } from '../orders/order-reads.service';
import { RemittanceReads } from '../remittances/remittance-reads.service';
import { SessionReads } from '../sessions/session-reads.service';
import { TotalsService } from '../totals/totals.service';
import { LoaderFactory } from './request-loaders';

/** The dashboard's read side (pages, batched look-ups, totals); imported by the GraphQL module and its options. */
@Module({
  imports: [OrdersModule],
  providers: [SessionReads, OrderReads, MerchantReads, RemittanceReads, TotalsService, LoaderFactory],
  exports: [SessionReads, OrderReads, MerchantReads, RemittanceReads, TotalsService, LoaderFactory],
})
export class DashboardReadsModule {}
