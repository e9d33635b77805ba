import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { AuthModule } from './auth/auth.module';
import { DemoSeeder } from './auth/demo-seeder';
import { CheckoutModule } from './checkout/checkout.module';
import { ClockModule } from './common/clock/clock.module';
import { AppConfig } from './common/config/app-config';
import { ConfigModule } from './common/config/config.module';
import { DatabaseModule } from './common/database/database.module';
import { SchedulerModule } from './common/scheduler/scheduler.module';
import { SecretsModule } from './common/secrets/secrets.module';
import { GlobalExceptionFilter } from './common/errors/global-exception.filter';
import { LoggingModule } from './common/logging/logging.module';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';
import { NotificationsModule } from './notifications/notifications.module';
import { AppValidationPipe } from './common/validation/app-validation.pipe';
import { OrderJobsModule } from './orders/order-jobs.module';
import { PaymentPageModule } from './payment-page/payment-page.module';
import { SessionModule } from './session/session.module';
import { TaxModule } from './tax/tax.module';
import { GraphqlApiModule } from './graphql/graphql-api.module';
import { RemittanceJobsModule } from './remittance/remittance-jobs.module';
import { RemittanceModule } from './remittance/remittance.module';

/** Feature modules are listed statically (where `nest g module` adds new ones); configuration is dynamic. */
@Module({
  imports: [LoggingModule, ClockModule, DatabaseModule, SchedulerModule, SecretsModule, AuthModule, SessionModule, CheckoutModule, PaymentPageModule, OrderJobsModule, TaxModule, HealthModule, MetricsModule, GraphqlApiModule, RemittanceModule, RemittanceJobsModule, NotificationsModule],
  providers: [
    { provide: APP_FILTER, useClass: GlobalExceptionFilter },
    { provide: APP_PIPE, useClass: AppValidationPipe },
    // Only the HTTP service seeds the sandbox; the command line never creates anything by itself.
    DemoSeeder,
  ],
})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      // Rate limiting registers its guard and interceptor only when a limit is configured.
      imports: [ConfigModule.forRoot(config), RateLimitModule.forRoot(config)],
    };
  }
}
