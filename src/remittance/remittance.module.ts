import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { CheckoutModule } from '../checkout/checkout.module';
import { RemittanceService } from './remittance.service';
import { ReportService } from './report.service';
import { ReportsController } from './reports.controller';

/** Remittance runs and the merchants' settlement reports (signed, like the rest of the Checkout interface). */
@Module({
  imports: [AuthModule, CheckoutModule],
  controllers: [ReportsController],
  providers: [RemittanceService, ReportService],
  exports: [RemittanceService, ReportService],
})
export class RemittanceModule {}
