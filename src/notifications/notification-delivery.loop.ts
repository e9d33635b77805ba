import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../common/config/app-config';
import { NotificationDeliveryService } from './notification-delivery.service';

/**
 * The worker: every NOTIFY_DELIVERY_INTERVAL_MS each instance sends what is due (one run at a time per
 * instance). Not a Scheduler job on purpose: a job runs on one instance per period, while deliveries
 * should spread over every instance, and each event is claimed on its own anyway (a lease per event), so
 * instances need no turn-taking. Off where scheduled work is off (SCHEDULER_ENABLED=false); there
 * `cli notifications deliver` sends once, e.g. from cron. Shutdown: the timer stops here, the service
 * aborts and awaits the attempts in flight.
 */
@Injectable()
export class NotificationDeliveryLoop implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Notifications');
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(
    private readonly delivery: NotificationDeliveryService,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.scheduler.enabled) return;
    this.timer = setInterval(() => this.tick(), this.config.notifications.deliveryIntervalMs);
    // Never keeps the process alive by itself.
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private tick(): void {
    if (this.running) return;
    this.running = true;
    this.delivery
      .deliverDue()
      .catch((error: unknown) => this.logger.error(`delivery run failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => (this.running = false));
  }
}
