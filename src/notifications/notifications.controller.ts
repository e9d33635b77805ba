import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RequireAccess } from '../auth/access.decorator';
import { BasicAuthGuard } from '../auth/basic-auth.guard';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { Principal } from '../auth/principal';
import { ErrorBodyView } from '../common/errors/error-body.dto';
import { RequireJsonInterceptor } from '../common/http/require-json.interceptor';
import { UuidParamPipe } from '../common/validation/uuid-param.pipe';
import { NotificationListQuery, RedeliverRangeRequest } from './dto/notification-requests.dto';
import { NotificationDetailView, NotificationListView, RedeliveredView } from './dto/notification-views.dto';
import { NotificationsService } from './notifications.service';

@ApiTags('Notifications')
@ApiBasicAuth()
@ApiResponse({ status: 401, type: ErrorBodyView, description: 'AUTHENTICATION_REQUIRED' })
@ApiResponse({ status: 403, type: ErrorBodyView, description: 'NOT_AUTHORIZED (readonly users and admins cannot redeliver or send tests)' })
@Controller('notifications')
@UseGuards(BasicAuthGuard)
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get()
  @RequireAccess('read')
  @ApiResponse({ status: 200, type: NotificationListView })
  @ApiResponse({ status: 400, type: ErrorBodyView, description: 'INVALID_REQUEST' })
  list(@CurrentPrincipal() principal: Principal, @Query() query: NotificationListQuery): Promise<NotificationListView> {
    return this.notifications.list(principal, query);
  }

  @Post('redeliver')
  @HttpCode(202)
  @RequireAccess('write')
  @UseInterceptors(RequireJsonInterceptor)
  @ApiBody({ type: RedeliverRangeRequest })
  @ApiResponse({ status: 202, type: RedeliveredView })
  @ApiResponse({ status: 400, type: ErrorBodyView, description: 'INVALID_REQUEST' })
  async redeliverRange(@CurrentPrincipal() principal: Principal, @Body() body: RedeliverRangeRequest): Promise<RedeliveredView> {
    return { Redelivered: await this.notifications.redeliverRange(principal, body.From, body.To) };
  }

  @Post('test')
  @HttpCode(202)
  @RequireAccess('write')
  @ApiResponse({ status: 202, type: NotificationDetailView, description: 'A TEST event, queued for the merchant\'s notify URL' })
  @ApiResponse({ status: 409, type: ErrorBodyView, description: 'NOTIFY_URL_MISSING' })
  test(@CurrentPrincipal() principal: Principal): Promise<NotificationDetailView> {
    return this.notifications.sendTest(principal);
  }

  @Get(':EventId')
  @RequireAccess('read')
  @ApiResponse({ status: 200, type: NotificationDetailView })
  @ApiResponse({ status: 400, type: ErrorBodyView, description: 'VALIDATION_ERROR' })
  @ApiResponse({ status: 404, type: ErrorBodyView, description: 'NOTIFICATION_NOT_FOUND' })
  get(@CurrentPrincipal() principal: Principal, @Param('EventId', UuidParamPipe) id: string): Promise<NotificationDetailView> {
    return this.notifications.get(principal, id);
  }

  @Post(':EventId/redeliver')
  @HttpCode(202)
  @RequireAccess('write')
  @ApiResponse({ status: 202, type: NotificationDetailView })
  @ApiResponse({ status: 404, type: ErrorBodyView, description: 'NOTIFICATION_NOT_FOUND' })
  redeliver(@CurrentPrincipal() principal: Principal, @Param('EventId', UuidParamPipe) id: string): Promise<NotificationDetailView> {
    return this.notifications.redeliver(principal, id);
  }
}
