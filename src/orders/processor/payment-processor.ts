import type { PaymentMethodDefinition } from '../../checkout/payment-methods/payment-method-catalogue';
import type { CardInput } from './card';

/** What the service keeps of a card: the processor's token, the scheme and the last four digits. */
export interface CardToken {
  token: string;
  brand: string;
  last4: string;
}

export interface AuthorizationRequest {
  merchantId: string;
  orderId: string;
  /** Idempotency key at the processor: one authorization per order attempt, however often it is sent. */
  attemptKey: string;
  /** The merchant's order number, quoted by the shopper on a bank transfer. */
  reference: string;
  amountMinor: number;
  currency: string;
  method: PaymentMethodDefinition;
  cardToken?: string;
  /** A merchant-initiated charge of a stored contract: no shopper present, so no 3-D Secure. */
  merchantInitiated: boolean;
}

export type AuthorizationResult =
  /** underReview: authorized, but held for a fraud review before it may be captured. */
  | { outcome: 'approved'; underReview?: boolean }
  | { outcome: 'declined'; reason: 'declined' | 'insufficient_funds' }
  | { outcome: 'challenge' }
  | { outcome: 'redirect' }
  | { outcome: 'awaiting_funds'; bankDetails: Record<string, string> };

/**
 * The acquirer/processor behind the orders. Every money-moving call carries an idempotency key, so a
 * retried or raced call never charges, captures or refunds twice at the processor. The sandbox has a
 * simulated one (SandboxProcessor); production needs an adapter for a real processor.
 */
export interface PaymentProcessor {
  /** Exchanges card data for a token at once; the card data goes no further. */
  tokenize(merchantId: string, card: CardInput): Promise<CardToken>;
  authorize(request: AuthorizationRequest): Promise<AuthorizationResult>;
  /** The shopper finished (or abandoned) a 3-D Secure challenge or a redirect approval. */
  completeAuthentication(orderId: string, attemptKey: string, approved: boolean): Promise<'approved' | 'declined'>;
  capture(orderId: string, amountMinor: number, currency: string): Promise<boolean>;
  void(orderId: string): Promise<void>;
  refund(refundId: string, orderId: string, amountMinor: number, currency: string): Promise<{ succeeded: boolean; reason?: string }>;
}

export const PAYMENT_PROCESSOR = Symbol('PAYMENT_PROCESSOR');
