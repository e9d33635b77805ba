import { Module } from '@nestjs/common';
import { NotificationOutbox } from './notification-outbox.service';

/**
 * Only the outbox, for the domain modules that record notifications (orders, the payment page): it
 * needs nothing but the database and the clock, so they can import it without the delivery side.
 */
@Module({ providers: [NotificationOutbox], exports: [NotificationOutbox] })
export class NotificationOutboxModule {}
