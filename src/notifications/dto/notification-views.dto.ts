import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { NotificationState, NotificationType } from '../notification-types';

/** One event in a list: what it is about and how its delivery stands. */
export class NotificationSummaryView {
  @ApiProperty() EventId: string;
  @ApiProperty({ enum: NotificationType }) EventType: NotificationType;
  @ApiProperty() MerchantId: string;
  @ApiProperty({ enum: ['Order', 'Refund', 'Session', 'Test'] }) ResourceType: string;
  @ApiProperty() ResourceId: string;
  @ApiProperty({ description: '1, 2, 3 … per resource' }) Sequence: number;
  @ApiProperty({ enum: NotificationState }) State: NotificationState;
  @ApiProperty({ description: 'Delivery attempts made so far' }) Attempts: number;
  @ApiPropertyOptional({ description: 'HTTP status of the last attempt' }) LastStatus?: number;
  @ApiPropertyOptional({ description: 'Why the last attempt failed, when no status explains it' }) LastError?: string;
  @ApiPropertyOptional({ description: 'When a Pending event is tried next' }) NextAttemptAt?: string;
  @ApiPropertyOptional() DeliveredAt?: string;
  @ApiProperty() CreatedAt: string;
}

export class NotificationAttemptView {
  @ApiProperty() Attempt: number;
  @ApiProperty() StartedAt: string;
  @ApiProperty() DurationMs: number;
  @ApiPropertyOptional() StatusCode?: number;
  @ApiPropertyOptional() Error?: string;
}

/** One event with the body that is sent and every attempt. */
export class NotificationDetailView extends NotificationSummaryView {
  @ApiPropertyOptional({ description: 'The order\'s own Notify URL, when the checkout gave one (else the merchant\'s URL is used)' }) NotifyUrl?: string;
  @ApiProperty({ description: 'The JSON body POSTed: {EventId, EventType, CreatedAt, Sequence, Session | Order | Refund}' }) Payload: Record<string, unknown>;
  @ApiProperty({ type: [NotificationAttemptView] }) AttemptLog: NotificationAttemptView[];
}

export class NotificationListView {
  @ApiProperty({ type: [NotificationSummaryView] }) Notifications: NotificationSummaryView[];
  @ApiPropertyOptional({ description: 'Pass as `after` for the next page; absent on the last page' }) Next?: string;
}

export class RedeliveredView {
  @ApiProperty({ description: 'Events put back in the queue (those in flight at that moment are left to their attempt)' }) Redelivered: number;
}
