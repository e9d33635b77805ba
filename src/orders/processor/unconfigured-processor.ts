import { CheckoutError, CheckoutErrorCode } from '../../checkout/checkout-errors';
import { PaymentProcessor } from './payment-processor';

const unavailable = (): never => {
  throw new CheckoutError(CheckoutErrorCode.ServiceUnavailable, 'No payment processor is configured for production: the simulated one serves the sandbox only');
};

/**
 * Production without a processor adapter: every payment is refused plainly rather than simulated.
 * A real adapter implements PaymentProcessor and replaces this in OrdersModule.
 */
export class UnconfiguredProcessor implements PaymentProcessor {
  tokenize = unavailable;
  authorize = unavailable;
  completeAuthentication = unavailable;
  capture = unavailable;
  void = unavailable;
  refund = unavailable;
}
