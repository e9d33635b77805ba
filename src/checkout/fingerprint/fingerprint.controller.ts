import { Controller, Get, Header, Headers, Ip, NotFoundException, Param, Query, Res, UseFilters, UseGuards, VERSION_NEUTRAL } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiProperty, ApiQuery, ApiTags } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import type { Response } from 'express';
import { SigningSecretService } from '../../auth/signing-secret.service';
import { CheckoutExceptionFilter } from '../signed/checkout-exception.filter';
import { Replayable } from '../signed/signed-endpoint.decorator';
import { SignedPayload } from '../signed/signed-payload.decorator';
import { SignedRequestGuard } from '../signed/signed-request.guard';
import { FingerprintService } from './fingerprint.service';

export class FingerprintRequestDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'must be a UUID' })
  MerchantId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@ApiTags('Checkout')
@Controller()
export class FingerprintController {
  constructor(
    private readonly fingerprints: FingerprintService,
    private readonly signingSecrets: SigningSecretService,
  ) {}

  /**
   * The script a merchant page loads with a <script> tag (URL built and signed by the merchant's server).
   * Its body is JavaScript, so its signature travels in the Signature header.
   */
  @Get('fingerprint')
  @Replayable()
  @UseGuards(SignedRequestGuard)
  @UseFilters(CheckoutExceptionFilter)
  @ApiQuery({ name: 'request', description: 'JSON text of {"MerchantId": "…"}' })
  @ApiQuery({ name: 'signature', description: 'Base64(HMAC-SHA256(signing secret, request))' })
  async script(@SignedPayload() payload: FingerprintRequestDto, @Res() response: Response): Promise<void> {
    const merchantId = payload.MerchantId.toLowerCase();
    const script = await this.fingerprints.script(merchantId);
    response
      .status(200)
      .type('application/javascript; charset=utf-8')
      .setHeader('Cache-Control', 'no-store')
      .setHeader('Signature', await this.signingSecrets.sign(merchantId, script))
      .send(script);
  }
}

/** The hidden frame the script adds: records the device once, shows nothing. Unsigned: the browser loads it. */
@Controller({ path: 'fingerprint', version: VERSION_NEUTRAL })
export class FingerprintFrameController {
  constructor(private readonly fingerprints: FingerprintService) {}

  @Get(':id')
  @ApiExcludeEndpoint()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  @Header('Content-Security-Policy', "default-src 'none'")
  async frame(
    @Param('id') id: string,
    @Query() screen: Record<string, string>,
    @Headers('user-agent') userAgent: string | undefined,
    @Headers('accept-language') language: string | undefined,
    @Ip() ip: string,
  ): Promise<string> {
    const flat = Object.fromEntries(Object.entries(screen).filter(([, v]) => typeof v === 'string'));
    if (!UUID.test(id) || !(await this.fingerprints.record(id.toLowerCase(), { userAgent: userAgent ?? null, language: language ?? null, ip, screen: flat }))) {
      throw new NotFoundException();
    }
    return '<!doctype html><title>.</title>';
  }
}
