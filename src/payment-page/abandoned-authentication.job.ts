import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../common/config/app-config';
import { Scheduler } from '../common/scheduler/scheduler.service';
import { SessionPaymentService } from './session-payment.service';

/**
 * Every minute, ends the 3-D Secure and redirect steps that payment-page shoppers started more than
 * PAYMENT_AUTHENTICATION_TIMEOUT_SECONDS ago and never finished, as their Decline would: without it
 * such a session stayed REDIRECTED, and its order Pending, for ever. Each one is a conditional move of
 * the order (by version) and of the session (from REDIRECTED), so a second run or instance changes nothing.
 */
@Injectable()
export class AbandonedAuthenticationJob implements OnModuleInit {
  constructor(
    private readonly scheduler: Scheduler,
    private readonly sessionPayments: SessionPaymentService,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.scheduler.register({ name: 'abandoned-authentications', intervalSeconds: 60, run: (now) => this.run(now) });
  }

  run(now: Date): Promise<number> {
    return this.sessionPayments.abandonAuthentications(new Date(now.getTime() - this.config.paymentAuthenticationTimeoutSeconds * 1000));
  }
}
