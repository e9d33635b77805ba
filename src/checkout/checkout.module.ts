import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { OrdersModule } from '../orders/orders.module';
import { CheckoutController } from './orders/checkout.controller';
import { CheckoutService } from './orders/checkout.service';
import { OrderOperationsController } from './orders/order-operations.controller';
import { AssetsController } from './badge/assets.controller';
import { BadgeController } from './badge/badge.controller';
import { BadgeService } from './badge/badge.service';
import { FingerprintController, FingerprintFrameController } from './fingerprint/fingerprint.controller';
import { FingerprintService } from './fingerprint/fingerprint.service';
import { PaymentMethodsController } from './payment-methods/payment-methods.controller';
import { PaymentMethodsService } from './payment-methods/payment-methods.service';
import { RATE_SOURCE } from './rates/rate-source';
import { RatesController } from './rates/rates.controller';
import { RatesService } from './rates/rates.service';
import { ReferenceRateSource } from './rates/reference-rate-source';
import { CheckoutExceptionFilter } from './signed/checkout-exception.filter';
import { ReplayGuardService } from './signed/replay-guard.service';
import { SignedRequestGuard } from './signed/signed-request.guard';
import { SignedResponseInterceptor } from './signed/signed-response.interceptor';

/** The signed Checkout interface (rates, fingerprint, payment methods, badge, checkout, capture, refund). */
@Module({
  imports: [AuthModule, OrdersModule],
  controllers: [BadgeController, AssetsController, FingerprintController, FingerprintFrameController, RatesController, PaymentMethodsController, CheckoutController, OrderOperationsController],
  providers: [CheckoutService, BadgeService, FingerprintService, PaymentMethodsService, RatesService, { provide: RATE_SOURCE, useClass: ReferenceRateSource }, SignedRequestGuard, ReplayGuardService, SignedResponseInterceptor, CheckoutExceptionFilter],
  // ReplayGuardService and RATE_SOURCE: for signed controllers and rate users in other modules (remittance reports).
  exports: [FingerprintService, BadgeService, ReplayGuardService, RATE_SOURCE],
})
export class CheckoutModule {}
