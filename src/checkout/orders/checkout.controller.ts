import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequestWithSignedCall } from '../signed/signed-call';
import { SignedEndpoint } from '../signed/signed-endpoint.decorator';
import { SignedPayload } from '../signed/signed-payload.decorator';
import { CheckoutRequestDto } from './checkout-request.dto';
import { CheckoutService } from './checkout.service';

@ApiTags('Checkout')
@Controller('checkout')
export class CheckoutController {
  constructor(private readonly checkouts: CheckoutService) {}

  /** A card travels in the unsigned `card` field beside `request` and `signature` (DESIGN.md section 5). */
  @Post()
  @HttpCode(200)
  @SignedEndpoint()
  async checkout(@SignedPayload() payload: CheckoutRequestDto, @Req() request: RequestWithSignedCall): Promise<Record<string, unknown>> {
    return this.checkouts.checkout(request.signedCall!.merchant!, payload, request.signedCall!.card);
  }
}
