import { Module } from '@nestjs/common';
import { AppConfig } from '../common/config/app-config';
import { NotificationOutboxModule } from '../notifications/notification-outbox.module';
import { OrderPaymentService } from './order-payment.service';
import { OrderService } from './order.service';
import { PAYMENT_PROCESSOR } from './processor/payment-processor';
import { SandboxProcessor } from './processor/sandbox-processor';
import { UnconfiguredProcessor } from './processor/unconfigured-processor';
import { RefundService } from './refund.service';

/** Orders, their state machine, refunds and the processor behind them; used by checkout and sessions. */
@Module({
  imports: [NotificationOutboxModule],
  providers: [
    OrderService,
    OrderPaymentService,
    RefundService,
    SandboxProcessor,
    {
      provide: PAYMENT_PROCESSOR,
      inject: [AppConfig, SandboxProcessor],
      useFactory: (config: AppConfig, sandbox: SandboxProcessor) => (config.environment === 'sandbox' ? sandbox : new UnconfiguredProcessor()),
    },
  ],
  exports: [OrderService, OrderPaymentService, RefundService, PAYMENT_PROCESSOR],
})
export class OrdersModule {}
