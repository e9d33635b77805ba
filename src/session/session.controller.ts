import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RequireAccess } from '../auth/access.decorator';
import { BasicAuthGuard } from '../auth/basic-auth.guard';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { Principal } from '../auth/principal';
import { ErrorBodyView } from '../common/errors/error-body.dto';
import { RequireJsonInterceptor } from '../common/http/require-json.interceptor';
import { IdempotencyInterceptor } from '../common/idempotency/idempotency.interceptor';
import { UuidParamPipe } from '../common/validation/uuid-param.pipe';
import { SessionRequestDto } from './dto/session-request.dto';
import { SessionView } from './dto/session-response.dto';
import { SessionService } from './session.service';

@ApiTags('Session')
@ApiBasicAuth()
@ApiResponse({ status: 401, type: ErrorBodyView, description: 'AUTHENTICATION_REQUIRED' })
@ApiResponse({ status: 403, type: ErrorBodyView, description: 'NOT_AUTHORIZED' })
@Controller('session')
@UseGuards(BasicAuthGuard)
export class SessionController {
  constructor(private readonly sessions: SessionService) {}

  @Post()
  @RequireAccess('write')
  @UseInterceptors(RequireJsonInterceptor, IdempotencyInterceptor)
  @ApiBody({ type: SessionRequestDto })
  @ApiResponse({ status: 201, type: SessionView })
  @ApiResponse({ status: 400, type: ErrorBodyView, description: 'INVALID_REQUEST, INVALID_CURRENCY' })
  @ApiResponse({ status: 409, type: ErrorBodyView, description: 'DUPLICATE_MERCHANT_REFERENCE_ID, DUPLICATE_REQUEST' })
  @ApiResponse({ status: 415, type: ErrorBodyView, description: 'UNSUPPORTED_MEDIA_TYPE' })
  create(@CurrentPrincipal() principal: Principal, @Body() body: SessionRequestDto): Promise<SessionView> {
    return this.sessions.create(principal, body);
  }

  @Get(':SessionId')
  @RequireAccess('read')
  @ApiResponse({ status: 200, type: SessionView })
  @ApiResponse({ status: 400, type: ErrorBodyView, description: 'VALIDATION_ERROR' })
  @ApiResponse({ status: 404, type: ErrorBodyView, description: 'SESSION_NOT_FOUND' })
  get(@CurrentPrincipal() principal: Principal, @Param('SessionId', UuidParamPipe) id: string): Promise<SessionView> {
    return this.sessions.get(principal, id);
  }

  @Put(':SessionId')
  @RequireAccess('write')
  @UseInterceptors(RequireJsonInterceptor, IdempotencyInterceptor)
  @ApiBody({ type: SessionRequestDto })
  @ApiResponse({ status: 200, type: SessionView })
  @ApiResponse({ status: 404, type: ErrorBodyView, description: 'SESSION_NOT_FOUND' })
  @ApiResponse({ status: 409, type: ErrorBodyView, description: 'INVALID_SESSION_STATE, DUPLICATE_REQUEST, DUPLICATE_MERCHANT_REFERENCE_ID' })
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('SessionId', UuidParamPipe) id: string,
    @Body() body: SessionRequestDto,
  ): Promise<SessionView> {
    return this.sessions.update(principal, id, body);
  }

  @Delete(':SessionId')
  @HttpCode(204)
  @RequireAccess('write')
  @ApiResponse({ status: 204, description: 'Cancelled' })
  @ApiResponse({ status: 409, type: ErrorBodyView, description: 'INVALID_SESSION_STATE' })
  cancel(@CurrentPrincipal() principal: Principal, @Param('SessionId', UuidParamPipe) id: string): Promise<void> {
    return this.sessions.cancel(principal, id);
  }
}
