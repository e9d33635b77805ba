import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsUUID, Max, Min, ValidateBy } from 'class-validator';
import { parseRfc3339 } from '../../checkout/signed/request-timestamp';
import { NotificationState, NotificationType } from '../notification-types';

/** An RFC 3339 date-time with a zone (2025-11-27T10:00:00Z); no local times, no February 30. */
const Rfc3339 = () =>
  ValidateBy({
    name: 'isRfc3339',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && value.length <= 40 && parseRfc3339(value) !== null,
      defaultMessage: () => 'must be an RFC 3339 date-time with a zone, e.g. 2025-11-27T10:00:00Z',
    },
  });

/** GET /notifications: the merchant's events, newest first, filtered, a page at a time. */
export class NotificationListQuery {
  @ApiPropertyOptional({ description: 'Events created at or after this instant (RFC 3339)', example: '2025-11-27T00:00:00Z' })
  @IsOptional() @Rfc3339()
  from?: string;

  @ApiPropertyOptional({ description: 'Events created before this instant (RFC 3339)' })
  @IsOptional() @Rfc3339()
  to?: string;

  @ApiPropertyOptional({ enum: NotificationState })
  @IsOptional() @IsIn(Object.values(NotificationState))
  state?: NotificationState;

  @ApiPropertyOptional({ enum: NotificationType })
  @IsOptional() @IsIn(Object.values(NotificationType))
  type?: NotificationType;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100)
  limit?: number;

  @ApiPropertyOptional({ description: 'The previous page\'s Next: events after (older than) that EventId' })
  @IsOptional() @IsUUID()
  after?: string;
}

/** POST /notifications/redeliver: every event of the merchant created in [From, To) is sent again. */
export class RedeliverRangeRequest {
  @ApiProperty({ example: '2025-11-27T00:00:00Z' })
  @Rfc3339()
  From: string;

  @ApiProperty({ example: '2025-11-28T00:00:00Z' })
  @Rfc3339()
  To: string;
}
