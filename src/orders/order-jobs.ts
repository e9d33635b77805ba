import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../common/config/app-config';
import { Scheduler } from '../common/scheduler/scheduler.service';
import { OrderService } from './order.service';
import { RefundService } from './refund.service';

/**
 * The orders' scheduled work, each run once per period across instances (database lease):
 * cancel authorizations past their 7-day Expiry, and finish orders and refunds an instance left half done.
 * Each step is guarded by the order's version or the refund's state, so a second run changes nothing.
 * Also the ORDER_CAPTURE_DEADLINE_APPROACHING reminders (once per authorization, claimed on the order's row).
 */
@Injectable()
export class OrderJobs implements OnModuleInit {
  constructor(
    private readonly scheduler: Scheduler,
    private readonly orders: OrderService,
    private readonly refunds: RefundService,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.scheduler.register({ name: 'authorization-expiry', intervalSeconds: 60, run: () => this.orders.expireAuthorizations() });
    await this.scheduler.register({ name: 'order-recovery', intervalSeconds: 60, run: () => this.orders.recoverInterrupted() });
    await this.scheduler.register({ name: 'refund-recovery', intervalSeconds: 60, run: () => this.refunds.recoverInterrupted() });
    const reminderMs = this.config.notifications.captureReminderSeconds * 1000;
    await this.scheduler.register({ name: 'capture-deadline-reminder', intervalSeconds: 60, run: () => this.orders.remindCaptureDeadlines(reminderMs) });
  }
}
