import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { CheckoutModule } from '../checkout/checkout.module';
import { OrdersModule } from '../orders/orders.module';
import { NotificationOutboxModule } from '../notifications/notification-outbox.module';
import { AbandonedAuthenticationJob } from './abandoned-authentication.job';
import { OrderAuthorizationController } from './order-authorization.controller';
import { PaymentPageController } from './payment-page.controller';
import { SessionPaymentService } from './session-payment.service';

/**
 * The payment component: component.js, the hosted payment page, and the 3-D Secure / redirect page;
 * and the abandoned-authentications job (so `cli jobs run` boots this module too: JOB_MODULES).
 */
@Module({
  imports: [AuthModule, CheckoutModule, OrdersModule, NotificationOutboxModule],
  controllers: [PaymentPageController, OrderAuthorizationController],
  providers: [SessionPaymentService, AbandonedAuthenticationJob],
})
export class PaymentPageModule {}
