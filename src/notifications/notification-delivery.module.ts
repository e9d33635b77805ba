import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { NotificationDeliveryService } from './notification-delivery.service';

/** Sending the outbox's events, without the loop that does it every second (the command line sends once). */
@Module({ imports: [AuthModule], providers: [NotificationDeliveryService], exports: [NotificationDeliveryService] })
export class NotificationDeliveryModule {}
