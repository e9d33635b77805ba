import { applyDecorators, UseFilters, UseGuards, UseInterceptors } from '@nestjs/common';
import { CheckoutExceptionFilter } from './checkout-exception.filter';
import { SignedRequestGuard } from './signed-request.guard';
import { SignedResponseInterceptor } from './signed-response.interceptor';

/** A Checkout route: signed request in, signed response (or signed error) out. */
export const SignedEndpoint = () =>
  applyDecorators(UseGuards(SignedRequestGuard), UseInterceptors(SignedResponseInterceptor), UseFilters(CheckoutExceptionFilter));
