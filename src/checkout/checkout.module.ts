import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { AssetsController } from './badge/assets.controller';
import { BadgeController } from './badge/badge.controller';
import { BadgeService } from './badge/badge.service';
import { CheckoutExceptionFilter } from './signed/checkout-exception.filter';
import { SignedRequestGuard } from './signed/signed-request.guard';
import { SignedResponseInterceptor } from './signed/signed-response.interceptor';

/** The signed Checkout interface (rates, fingerprint, payment methods, badge, checkout, capture, refund). */
@Module({
  imports: [AuthModule],
  controllers: [BadgeController, AssetsController],
  providers: [BadgeService, SignedRequestGuard, SignedResponseInterceptor, CheckoutExceptionFilter],
})
export class CheckoutModule {}
