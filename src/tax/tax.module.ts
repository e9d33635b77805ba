import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { SalesTaxRateStrategy } from './rates/sales-tax-rate.strategy';
import { TAX_RATE_STRATEGY } from './rates/tax-rate.strategy';
import { TaxQuoteController } from './tax-quote.controller';
import { TaxQuoteService } from './tax-quote.service';

/** Tax quotes at /v1/tax/quote. Bind another TAX_RATE_STRATEGY to use a different tax engine. */
@Module({
  imports: [AuthModule],
  controllers: [TaxQuoteController],
  providers: [TaxQuoteService, { provide: TAX_RATE_STRATEGY, useClass: SalesTaxRateStrategy }],
  exports: [TaxQuoteService],
})
export class TaxModule {}
