import { Module } from '@nestjs/common';

/** The signed Checkout interface (rates, fingerprint, payment methods, badge, checkout, capture, refund). */
@Module({})
export class CheckoutModule {}
