import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { NotificationDeliveryModule } from './notification-delivery.module';
import { NotificationDeliveryLoop } from './notification-delivery.loop';
import { NotificationOutboxModule } from './notification-outbox.module';
import { NotificationsController } from './notifications.controller';
import { NotificationsService } from './notifications.service';

/**
 * Notifications (DESIGN.md section 7) in the HTTP service: the merchant's API under /notifications and
 * the delivery loop. The outbox (NotificationOutboxModule) is imported by the domain modules that
 * record events; the capture-deadline reminder is one of the orders' scheduled jobs (OrderJobs).
 */
@Module({
  imports: [AuthModule, NotificationOutboxModule, NotificationDeliveryModule],
  controllers: [NotificationsController],
  providers: [NotificationsService, NotificationDeliveryLoop],
})
export class NotificationsModule {}
