import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Merchant } from '../auth/merchant.entity';
import { CheckoutError, CheckoutErrorCode } from '../checkout/checkout-errors';
import { availablePaymentMethods, findPaymentMethod, PaymentMethodDefinition } from '../checkout/payment-methods/payment-method-catalogue';
import { Clock } from '../common/clock/clock';
import { TransactionRunner } from '../common/database/transaction-runner';
import { formatMinorUnits, fromMinorUnits } from '../common/money/money';
import { NotificationOutbox } from '../notifications/notification-outbox.service';
import { NotificationType } from '../notifications/notification-types';
import { OrderPaymentService } from '../orders/order-payment.service';
import { NewOrder, OrderService } from '../orders/order.service';
import { isAuthorized, OrderState } from '../orders/order-state';
import { OrderEvent } from '../orders/order-event.entity';
import { Order } from '../orders/order.entity';
import { CardInput, parseCard } from '../orders/processor/card';
import { CardToken, PAYMENT_PROCESSOR, PaymentProcessor } from '../orders/processor/payment-processor';
import { BillingProfile } from '../session/billing-profile.entity';
import { moveSession } from '../session/session-payment-state';
import { PaymentSession } from '../session/session.entity';
import { SessionState } from '../session/session-state';

/** After this many declined attempts a session FAILS (a card-testing brake); before, the shopper may retry. */
export const MAX_PAYMENT_ATTEMPTS = 3;

/** The page's PaymentMethod for any card: the scheme (VISA, MC …) is read from the number. */
export const CARD = 'CARD';

export type PaymentOutcome =
  | { Outcome: 'COMPLETED'; OrderId: string; CompleteUrl: string; BankDetails?: Record<string, string> }
  | { Outcome: 'REDIRECTED'; RedirectUrl: string }
  | { Outcome: 'DECLINED'; Message: string; CanRetry: boolean };

/** A payment the page cannot take: bad input (400, FieldErrors) or a session not open for payment (409). */
export class PaymentRefused extends Error {
  constructor(
    readonly status: 400 | 409,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.Message ?? 'refused'));
  }
}

export interface PaymentInput {
  PaymentMethod?: unknown;
  Card?: unknown;
}

/** What the hosted page shows about a session. */
export interface SessionForPage {
  session: PaymentSession;
  profile: BillingProfile;
  merchant: Merchant;
  order: Order | null;
}

const CARD_FIELDS: Partial<Record<CheckoutErrorCode, string>> = {
  [CheckoutErrorCode.CardNameInvalid]: 'Name',
  [CheckoutErrorCode.CardNumberInvalid]: 'Number',
  [CheckoutErrorCode.PaymentMethodMismatch]: 'Number',
  [CheckoutErrorCode.CardMonthInvalid]: 'Expiry',
  [CheckoutErrorCode.CardYearInvalid]: 'Expiry',
  [CheckoutErrorCode.CardExpired]: 'Expiry',
  [CheckoutErrorCode.CardVerificationCodeInvalid]: 'VerificationCode',
  [CheckoutErrorCode.RequestMalformed]: 'Card',
};

const DECLINED = {
  declined: 'Your card was declined. Try another card or another payment method.',
  insufficient_funds: 'Your card was declined for insufficient funds. Try another card or another payment method.',
  abandoned: 'The payment was not completed. You can try again.',
};

/**
 * Payment of a session from the hosted page: the session moves CREATED → PROCESSING → (REDIRECTED) →
 * COMPLETED with exactly one order, or back to CREATED after a decline (FAILED after
 * MAX_PAYMENT_ATTEMPTS). The move to PROCESSING is one conditional UPDATE, so a double click, a
 * second tab or a retried request cannot pay twice. The order goes through the same state machine
 * and processor as checkout orders.
 */
@Injectable()
export class SessionPaymentService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly orders: OrderService,
    private readonly payments: OrderPaymentService,
    private readonly clock: Clock,
    @Inject(PAYMENT_PROCESSOR) private readonly processor: PaymentProcessor,
    private readonly outbox: NotificationOutbox,
  ) {}

  /** The session (expiry applied), its billing profile, merchant and order; null when unknown. */
  async forPage(sessionId: string): Promise<SessionForPage | null> {
    const session = await this.dataSource.getRepository(PaymentSession).findOneBy({ id: sessionId });
    if (!session) return null;
    if (session.state === SessionState.Created && session.expiresAt <= this.clock.now()) {
      await this.transactions.write((manager) =>
        manager.getRepository(PaymentSession).update({ id: session.id, state: SessionState.Created }, { state: SessionState.Expired }),
      );
      session.state = SessionState.Expired;
    }
    const [profile, merchant, order] = await Promise.all([
      this.dataSource.getRepository(BillingProfile).findOneByOrFail({ id: session.billingProfileId }),
      this.dataSource.getRepository(Merchant).findOneByOrFail({ id: session.merchantId }),
      this.dataSource.getRepository(Order).findOneBy({ sessionId: session.id }),
    ]);
    return { session, profile, merchant, order };
  }

  /** The payment methods the page offers: those of the billing country and the session's currency and total. */
  methodsFor(page: SessionForPage): PaymentMethodDefinition[] {
    const { session, profile } = page;
    return availablePaymentMethods({
      country: profile.country,
      currency: session.currency,
      viaAgent: session.viaAgent,
      amount: fromMinorUnits(session.totalAmount, session.currency),
    });
  }

  async pay(sessionId: string, input: PaymentInput): Promise<PaymentOutcome> {
    const page = await this.forPage(sessionId);
    if (!page) throw new PaymentRefused(409, { Outcome: 'UNAVAILABLE', State: null, Message: 'This payment session does not exist.' });
    if (page.session.state !== SessionState.Created) throw unavailable(page.session.state);
    const { method, card } = this.checkInput(page, input);

    const now = this.clock.now();
    if (!(await this.transactions.run((manager) => moveSession(manager, sessionId, SessionState.Created, SessionState.Processing, now)))) {
      const current = await this.dataSource.getRepository(PaymentSession).findOneByOrFail({ id: sessionId });
      throw unavailable(current.state);
    }
    try {
      const token = card ? await this.processor.tokenize(page.merchant.id, card) : null;
      const order = await this.orderFor(page, method, token);
      const { declined } = await this.payments.authorize(order, { openContract: page.session.openContract === true });
      return await this.settle(page.session, order, SessionState.Processing, declined);
    } catch (error) {
      // Nothing was charged (or the processor refused): the shopper may try again.
      await this.transactions.run((manager) => moveSession(manager, sessionId, SessionState.Processing, SessionState.Created, this.clock.now()));
      throw error;
    }
  }

  /**
   * The shopper came back from the 3-D Secure or redirect page of a session's order: the session
   * completes, or returns to CREATED (FAILED after too many attempts). Returns where to send the shopper.
   */
  async afterAuthentication(order: Order): Promise<{ outcome: PaymentOutcome; sessionId: string }> {
    const session = await this.dataSource.getRepository(PaymentSession).findOneByOrFail({ id: order.sessionId! });
    const declined = isAuthorized(order.state) ? undefined : 'abandoned';
    return { outcome: await this.settle(session, order, SessionState.Redirected, declined), sessionId: session.id };
  }

  /**
   * Scheduled (abandoned-authentications): sessions REDIRECTED whose order has waited for the shopper's
   * 3-D Secure or redirect step since before `cutoff` end as if the shopper had clicked Decline: the
   * order ProcessingFailed and the session back to CREATED (FAILED after the last allowed attempt),
   * both in one transaction. A shopper finishing at the same moment wins or loses cleanly (see
   * OrderPaymentService.abandonAuthentication). Returns how many were ended.
   */
  async abandonAuthentications(cutoff: Date, limit = 100): Promise<number> {
    const candidates = await this.dataSource
      .getRepository(Order)
      .createQueryBuilder('o')
      .innerJoin(PaymentSession, 's', 's.id = o.session_id')
      .where('s.state = :redirected AND o.state = :pending', { redirected: SessionState.Redirected, pending: OrderState.Pending })
      .limit(limit)
      .getMany();
    let count = 0;
    for (const order of candidates) {
      // When the shopper's step started: the order's last event, its move to Pending.
      const last = await this.dataSource.getRepository(OrderEvent).findOneBy({ orderId: order.id, sequence: order.version });
      if (!last || last.toState !== OrderState.Pending || last.createdAt > cutoff) continue;
      const to = order.attempts < MAX_PAYMENT_ATTEMPTS ? SessionState.Created : SessionState.Failed;
      const ended = await this.payments.abandonAuthentication(order, 'the shopper did not complete the authentication in time', (manager) =>
        this.moveRecorded(manager, order.sessionId!, SessionState.Redirected, to, this.clock.now()),
      );
      if (ended) count++;
    }
    return count;
  }

  private checkInput(page: SessionForPage, input: PaymentInput): { method: PaymentMethodDefinition; card: CardInput | null } {
    const name = typeof input.PaymentMethod === 'string' ? input.PaymentMethod : '';
    const offered = this.methodsFor(page);
    if (name !== CARD) {
      const method = findPaymentMethod(name);
      if (!method || method.class === 'Card' || !offered.includes(method)) throw fieldError('PaymentMethod', 'Choose one of the payment methods offered on this page.');
      return { method, card: null };
    }
    // "CARD": the scheme comes from the number, and must be one offered here.
    try {
      const card = parseCard(JSON.stringify(input.Card ?? {}), this.clock.now());
      const method = offered.find((candidate) => candidate.name === card.brand);
      if (!method) throw new CheckoutError(CheckoutErrorCode.PaymentMethodMismatch, 'This card scheme is not accepted for this payment');
      return { method, card };
    } catch (error) {
      if (error instanceof CheckoutError && CARD_FIELDS[error.code]) throw fieldError(CARD_FIELDS[error.code]!, error.message, error.code);
      throw error;
    }
  }

  /** The session's one order: new, or the declined one tried again with this attempt's method and card. */
  private async orderFor(page: SessionForPage, method: PaymentMethodDefinition, card: CardToken | null): Promise<Order> {
    const { session, profile, merchant } = page;
    const fields: Partial<Order> = {
      referenceId: session.merchantReference,
      paymentMethod: method.name,
      currency: session.currency,
      totalMinor: session.totalAmount,
      captureRequested: session.autoCapture,
      remittanceCurrency: merchant.remittanceCurrency,
      cardToken: card?.token ?? null,
      cardBrand: card?.brand ?? null,
      cardLast4: card?.last4 ?? null,
      requestHash: session.id,
      details: {
        Items: session.items.map((item) => ({ Sku: item.name, ConsumerPrice: formatMinorUnits(item.amount, session.currency), Quantity: item.quantity })),
        Consumer: { Name: profile.name, Email: profile.email, Country: profile.country },
        ViaAgent: session.viaAgent,
        OpenContract: session.openContract === true,
      },
    };
    const existing = await this.dataSource.getRepository(Order).findOneBy({ sessionId: session.id });
    if (existing) {
      if (existing.state !== OrderState.ProcessingFailed || !(await this.orders.move(existing, OrderState.Processing, { ...fields, attempts: existing.attempts + 1 }, 'new attempt'))) {
        throw new Error(`Session ${session.id} already has order ${existing.id} in state ${existing.state}`);
      }
      return existing;
    }
    return this.orders.open({ ...fields, merchantId: session.merchantId, source: 'session', sessionId: session.id } as NewOrder, 'session payment');
  }

  /**
   * Moves the session after the order's outcome; `from` is where this request found it. COMPLETED and
   * FAILED are recorded as notifications in the same transaction as the move.
   */
  private async settle(session: PaymentSession, order: Order, from: SessionState, declined: keyof typeof DECLINED | undefined): Promise<PaymentOutcome> {
    const now = this.clock.now();
    const move = (to: SessionState) => this.transactions.run((manager) => this.moveRecorded(manager, session.id, from, to, now));
    if (declined) {
      // A cancelled order (the merchant) cannot be tried again; a failed one can, up to the limit.
      const canRetry = order.attempts < MAX_PAYMENT_ATTEMPTS && order.state === OrderState.ProcessingFailed;
      await move(canRetry ? SessionState.Created : SessionState.Failed);
      return { Outcome: 'DECLINED', Message: canRetry ? DECLINED[declined] : 'The payment could not be completed.', CanRetry: canRetry };
    }
    const action = order.action;
    if (action && ('Challenge' in action || 'Redirect' in action)) {
      await move(SessionState.Redirected);
      return { Outcome: 'REDIRECTED', RedirectUrl: 'Challenge' in action ? action.Challenge : action.Redirect };
    }
    await move(SessionState.Completed);
    return {
      Outcome: 'COMPLETED',
      OrderId: order.id,
      CompleteUrl: withSessionId(session.completeUrl, session.id),
      ...(order.bankDetails ? { BankDetails: order.bankDetails } : {}),
    };
  }

  /** moveSession, with SESSION_COMPLETED or SESSION_FAILED recorded in the same transaction when it moved. */
  private async moveRecorded(manager: EntityManager, sessionId: string, from: SessionState, to: SessionState, now: Date): Promise<boolean> {
    const moved = await moveSession(manager, sessionId, from, to, now);
    const type = to === SessionState.Completed ? NotificationType.SessionCompleted : to === SessionState.Failed ? NotificationType.SessionFailed : null;
    if (moved && type) await this.outbox.record(manager, { sessionId }, [type]);
    return moved;
  }
}

/** CompleteUrl and CancelUrl may carry the literal {SessionId} placeholder (DESIGN.md section 4). */
export const withSessionId = (url: string, sessionId: string) => url.split('{SessionId}').join(sessionId);

function fieldError(field: string, message: string, code = 'FIELD_INVALID'): PaymentRefused {
  return new PaymentRefused(400, { Outcome: 'INVALID', Message: message, FieldErrors: [{ Field: field, Code: code, Message: message }] });
}

const UNAVAILABLE: Partial<Record<SessionState, string>> = {
  [SessionState.Processing]: 'A payment for this session is already being processed.',
  [SessionState.Redirected]: 'This payment is waiting for you to confirm it with your bank or wallet.',
  [SessionState.Completed]: 'This session is already paid.',
  [SessionState.Failed]: 'This payment could not be completed.',
  [SessionState.Cancelled]: 'The shop cancelled this payment session.',
  [SessionState.Expired]: 'This payment session has expired.',
};

function unavailable(state: SessionState): PaymentRefused {
  return new PaymentRefused(409, { Outcome: 'UNAVAILABLE', State: state, Message: UNAVAILABLE[state] ?? 'This session cannot take a payment now.' });
}
