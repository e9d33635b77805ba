import { Controller, Get, HttpCode, Ip, Post } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { SignedEndpoint } from '../signed/signed-endpoint.decorator';
import { SignedPayload } from '../signed/signed-payload.decorator';
import { BadgeRequestDto, BadgeView } from './badge.dto';
import { BadgeService } from './badge.service';

@ApiTags('Checkout')
@Controller('badge')
export class BadgeController {
  constructor(private readonly badges: BadgeService) {}

  @Get()
  @SignedEndpoint()
  @ApiQuery({ name: 'request', description: 'JSON text of BadgeRequestDto' })
  @ApiQuery({ name: 'signature', description: 'Base64(HMAC-SHA256(signing secret, request))' })
  badge(@SignedPayload() payload: BadgeRequestDto, @Ip() callerIp: string): Promise<BadgeView> {
    return this.badges.badge(payload.MerchantId.toLowerCase(), payload.Theme ?? 'light', payload.ConsumerIpAddress ?? callerIp);
  }

  /** The same call as a POST (form fields or a JSON envelope), for servers that sign bodies rather than URLs. */
  @Post()
  @HttpCode(200)
  @SignedEndpoint()
  badgeByPost(@SignedPayload() payload: BadgeRequestDto, @Ip() callerIp: string): Promise<BadgeView> {
    return this.badge(payload, callerIp);
  }
}
