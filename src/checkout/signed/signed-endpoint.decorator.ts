import { applyDecorators, SetMetadata, UseFilters, UseGuards, UseInterceptors } from '@nestjs/common';
import { CheckoutExceptionFilter } from './checkout-exception.filter';
import { SignedRequestGuard } from './signed-request.guard';
import { SignedResponseInterceptor } from './signed-response.interceptor';

/** Metadata key: the route may be called again with the same signed request (see Replayable). */
export const REPLAYABLE = 'checkout:replayable';

/**
 * Exempts a signed route from the replay check: a browser loads it from a signed URL in a page, again
 * on every reload, and it moves no money (the fingerprint script).
 */
export const Replayable = () => SetMetadata(REPLAYABLE, true);

/** A Checkout route: signed request in, signed response (or signed error) out. */
export const SignedEndpoint = () =>
  applyDecorators(UseGuards(SignedRequestGuard), UseInterceptors(SignedResponseInterceptor), UseFilters(CheckoutExceptionFilter));
