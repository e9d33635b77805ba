import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import { SignedEndpoint } from '../signed/signed-endpoint.decorator';
import { SignedPayload } from '../signed/signed-payload.decorator';
import { RatesService, RatesView } from './rates.service';

export class RatesRequestDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'must be a UUID' })
  MerchantId: string;
}

@ApiTags('Checkout')
@Controller('getRates')
export class RatesController {
  constructor(private readonly rates: RatesService) {}

  @Get()
  @SignedEndpoint()
  @ApiQuery({ name: 'request', description: 'JSON text of {"MerchantId": "…"}' })
  @ApiQuery({ name: 'signature', description: 'Base64(HMAC-SHA256(signing secret, request))' })
  getRates(@SignedPayload() payload: RatesRequestDto): Promise<RatesView> {
    return this.rates.rates(payload.MerchantId.toLowerCase());
  }

  @Post()
  @HttpCode(200)
  @SignedEndpoint()
  getRatesByPost(@SignedPayload() payload: RatesRequestDto): Promise<RatesView> {
    return this.getRates(payload);
  }
}
