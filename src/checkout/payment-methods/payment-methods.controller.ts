import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { SignedEndpoint } from '../signed/signed-endpoint.decorator';
import { SignedPayload } from '../signed/signed-payload.decorator';
import { PaymentMethodsRequestDto, PaymentMethodsView } from './payment-methods.dto';
import { PaymentMethodsService } from './payment-methods.service';

@ApiTags('Checkout')
@Controller('getPaymentMethods')
export class PaymentMethodsController {
  constructor(private readonly paymentMethods: PaymentMethodsService) {}

  @Get()
  @SignedEndpoint()
  @ApiQuery({ name: 'request', description: 'JSON text of PaymentMethodsRequestDto' })
  @ApiQuery({ name: 'signature', description: 'Base64(HMAC-SHA256(signing secret, request))' })
  getPaymentMethods(@SignedPayload() payload: PaymentMethodsRequestDto): PaymentMethodsView {
    return this.paymentMethods.paymentMethods(payload.Country, payload.Currency, payload.ViaAgent ?? false);
  }

  /** The same call as a POST (form fields or a JSON envelope), for servers that sign bodies rather than URLs. */
  @Post()
  @HttpCode(200)
  @SignedEndpoint()
  getPaymentMethodsByPost(@SignedPayload() payload: PaymentMethodsRequestDto): PaymentMethodsView {
    return this.getPaymentMethods(payload);
  }
}
