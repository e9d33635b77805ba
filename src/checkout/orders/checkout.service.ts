import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Merchant } from '../../auth/merchant.entity';
import { Clock } from '../../common/clock/clock';
import { violatedUniqueIndex } from '../../common/database/db-errors';
import { isCountryCode } from '../../common/iso/countries';
import { isSupportedCurrency } from '../../common/money/currencies';
import { fromMinorUnits } from '../../common/money/money';
import { Contract } from '../../orders/contract.entity';
import { OrderPaymentService } from '../../orders/order-payment.service';
import { NewOrder, OrderService } from '../../orders/order.service';
import { OrderState } from '../../orders/order-state';
import { Order, OrderDetails } from '../../orders/order.entity';
import { CardInput, parseCard } from '../../orders/processor/card';
import { CardToken, PAYMENT_PROCESSOR, PaymentProcessor } from '../../orders/processor/payment-processor';
import { CheckoutError, CheckoutErrorCode } from '../checkout-errors';
import { FingerprintService } from '../fingerprint/fingerprint.service';
import { findPaymentMethod, isOffered, PaymentMethodDefinition } from '../payment-methods/payment-method-catalogue';
import { RatesService } from '../rates/rates.service';
import { CheckoutRequestDto } from './checkout-request.dto';
import { checkedConsumerTotal } from './checkout-total';
import { checkoutAnswer } from './order.views';

const ORDER_REFERENCE = { UQ_order_merchant_reference: 'payment_order.merchant_id, payment_order.source, payment_order.reference_id' };

const DECLINE_MESSAGES = {
  declined: 'The payment was declined by the issuer',
  insufficient_funds: 'The payment was declined: insufficient funds',
  abandoned: 'The shopper did not complete the payment',
};

/** Everything checked before an order exists. */
interface ValidCheckout {
  totalMinor: number;
  method: PaymentMethodDefinition;
  remittanceCurrency: string;
  rate: { offerId: string; rate: string } | null;
  contract: Contract | null;
  card: CardInput | null;
  requestHash: string;
}

/**
 * POST /checkout: validates the request, reserves its ReferenceId as a new order, has the processor
 * authorize it, and answers {OrderId, Authorized, Completed, UnderReview, ContractId?, Action?}.
 * The same request again under its ReferenceId gets the same answer; a declined one may be retried.
 */
@Injectable()
export class CheckoutService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly rates: RatesService,
    private readonly fingerprints: FingerprintService,
    private readonly orders: OrderService,
    private readonly payments: OrderPaymentService,
    private readonly clock: Clock,
    @Inject(PAYMENT_PROCESSOR) private readonly processor: PaymentProcessor,
  ) {}

  /** `merchant` is the caller the signed transport identified (its MerchantId is the request's). */
  async checkout(merchant: Merchant, request: CheckoutRequestDto, cardText: string | undefined): Promise<Record<string, unknown>> {
    const merchantId = merchant.id;
    const valid = await this.validate(merchant, request, cardText);
    // Tokenized at once: from here on only the token, the scheme and the last four exist.
    const card: CardToken | null = valid.card
      ? await this.processor.tokenize(merchantId, valid.card)
      : valid.contract && { token: valid.contract.cardToken, brand: valid.contract.cardBrand, last4: valid.contract.cardLast4 };
    const reserved = await this.reserve(merchantId, request, valid, card);
    if (reserved.replay) return checkoutAnswer(reserved.order);

    const { declined } = await this.payments.authorize(reserved.order, { openContract: request.OpenContract === true });
    if (declined) throw new CheckoutError(CheckoutErrorCode.PaymentAuthorizationFailed, DECLINE_MESSAGES[declined]);
    return checkoutAnswer(reserved.order);
  }

  private async validate(merchant: Merchant, request: CheckoutRequestDto, cardText: string | undefined): Promise<ValidCheckout> {
    const now = this.clock.now();
    const merchantId = merchant.id;
    const currency = request.ConsumerCurrency;
    if (!isSupportedCurrency(currency)) throw new CheckoutError(CheckoutErrorCode.CurrencyNotFound, `${currency} is not a supported currency`);
    if (!isCountryCode(request.Consumer.Country)) throw new CheckoutError(CheckoutErrorCode.CountryInvalid, `${request.Consumer.Country} is not an ISO 3166-1 country`);
    const totalMinor = checkedConsumerTotal(request);

    const method = findPaymentMethod(request.PaymentMethod);
    const query = { country: request.Consumer.Country, currency, viaAgent: request.ViaAgent ?? false, amount: fromMinorUnits(totalMinor, currency) };
    if (!method || !isOffered(method, query)) {
      throw new CheckoutError(
        CheckoutErrorCode.PaymentMethodUnsupported,
        `${request.PaymentMethod} is not offered for ${query.country}, ${currency}${query.viaAgent ? ' via an agent' : ''} and this amount (see getPaymentMethods)`,
      );
    }

    const offer = request.RateOfferId ? await this.rates.acceptedOffer(request.RateOfferId, merchant.remittanceCurrency, currency, now) : null;
    if (request.DeviceFingerprint && !(await this.fingerprints.isKnownDevice(merchantId, request.DeviceFingerprint))) {
      throw new CheckoutError(CheckoutErrorCode.DeviceFingerprintInvalid, 'DeviceFingerprint is not a GUID this merchant\'s fingerprint script issued');
    }

    const contract = request.ContractId ? await this.contract(merchantId, request.ContractId, method) : null;
    let card: CardInput | null = null;
    if (cardText !== undefined && (method.class !== 'Card' || contract)) {
      throw new CheckoutError(CheckoutErrorCode.RequestInvalid, contract ? 'A contract charge takes no "card" field' : `${method.name} takes no "card" field`);
    }
    if (method.class === 'Card' && !contract) {
      if (cardText === undefined) throw new CheckoutError(CheckoutErrorCode.CardNumberInvalid, `A ${method.name} payment needs the "card" field beside "request" and "signature"`);
      card = parseCard(cardText, now);
      if (card.brand !== method.name) {
        throw new CheckoutError(CheckoutErrorCode.PaymentMethodMismatch, `The card is ${card.brand}, but PaymentMethod is ${method.name}`);
      }
    }
    if (request.OpenContract && method.class !== 'Card') {
      throw new CheckoutError(CheckoutErrorCode.PaymentMethodUnsupported, `${method.name} cannot open a contract: only cards can be stored`);
    }
    return {
      totalMinor,
      method,
      remittanceCurrency: merchant.remittanceCurrency,
      rate: offer ? { offerId: offer.id, rate: offer.rate } : null,
      contract,
      card,
      requestHash: requestHash(request, card),
    };
  }

  private async contract(merchantId: string, contractId: string, method: PaymentMethodDefinition): Promise<Contract> {
    const contract = await this.dataSource.getRepository(Contract).findOneBy({ id: contractId, merchantId });
    if (!contract) throw new CheckoutError(CheckoutErrorCode.ContractNotFound, 'No contract of this merchant has this ContractId');
    if (contract.state !== 'Open') throw new CheckoutError(CheckoutErrorCode.ContractClosed, 'The contract is closed');
    if (contract.paymentMethod !== method.name) {
      throw new CheckoutError(CheckoutErrorCode.PaymentMethodMismatch, `The contract is for ${contract.paymentMethod}, not ${method.name}`);
    }
    return contract;
  }

  /**
   * A new order in Processing holds the ReferenceId (a unique index), so two requests with one
   * ReferenceId never both reach the processor. An existing ReferenceId: the same request is answered
   * from the order as it stands now; after a decline any request is a new attempt; a different request
   * is ReferenceIdMismatch.
   */
  private async reserve(merchantId: string, request: CheckoutRequestDto, valid: ValidCheckout, card: CardToken | null): Promise<{ order: Order; replay: boolean }> {
    const fields = { ...this.orderFields(request, valid), cardToken: card?.token ?? null, cardBrand: card?.brand ?? null, cardLast4: card?.last4 ?? null };
    for (;;) {
      // The common case first: a new ReferenceId (no read before the insert).
      const created = await this.insertNew(merchantId, request.ReferenceId, fields);
      if (created) return { order: created, replay: false };
      const existing = await this.orders.find(merchantId, { referenceId: request.ReferenceId });
      if (!existing) continue;
      if (existing.state === OrderState.ProcessingFailed) {
        if (await this.orders.move(existing, OrderState.Processing, { ...fields, attempts: existing.attempts + 1 }, 'new attempt')) return { order: existing, replay: false };
        continue;
      }
      if (existing.requestHash !== valid.requestHash) {
        throw new CheckoutError(CheckoutErrorCode.ReferenceIdMismatch, 'This ReferenceId was already used for a different checkout');
      }
      if (existing.state === OrderState.Processing) {
        throw new CheckoutError(CheckoutErrorCode.RequestInProgress, 'A checkout with this ReferenceId is still being processed; ask again shortly');
      }
      return { order: existing, replay: true };
    }
  }

  /** The new order in Processing with its first event; null when the ReferenceId is taken already. */
  private async insertNew(merchantId: string, referenceId: string, fields: Partial<Order>): Promise<Order | null> {
    try {
      return await this.orders.open({ ...fields, merchantId, source: 'checkout', referenceId, sessionId: null } as NewOrder, 'checkout');
    } catch (error) {
      if (!violatedUniqueIndex(error, ORDER_REFERENCE)) throw error;
      return null;
    }
  }

  private orderFields(request: CheckoutRequestDto, valid: ValidCheckout): Partial<Order> {
    const details: OrderDetails = {
      Items: request.Items.map((item) => ({ Sku: item.Sku, Description: item.Description, ConsumerPrice: String(item.ConsumerPrice), Quantity: Number(item.Quantity) })),
      Charges: request.Charges?.map((charge) => ({ Name: charge.Name, ConsumerPrice: String(charge.ConsumerPrice) })),
      Discounts: request.Discounts?.map((discount) => ({ Name: discount.Name, ConsumerPrice: String(discount.ConsumerPrice) })),
      Shipping: request.Shipping && {
        ConsumerPrice: String(request.Shipping.ConsumerPrice),
        ConsumerTaxes: request.Shipping.ConsumerTaxes === undefined ? undefined : String(request.Shipping.ConsumerTaxes),
        ConsumerDuty: request.Shipping.ConsumerDuty === undefined ? undefined : String(request.Shipping.ConsumerDuty),
      },
      Consumer: { ...request.Consumer },
      ViaAgent: request.ViaAgent ?? false,
      AcceptLiability: request.AcceptLiability,
      OpenContract: request.OpenContract,
      Notify: request.Notify,
      Return: request.Return,
    };
    return {
      paymentMethod: valid.method.name,
      currency: request.ConsumerCurrency,
      totalMinor: valid.totalMinor,
      captureRequested: request.Capture !== false,
      remittanceCurrency: valid.remittanceCurrency,
      rateOfferId: valid.rate?.offerId ?? null,
      rate: valid.rate?.rate ?? null,
      contractId: valid.contract?.id ?? null,
      deviceFingerprint: request.DeviceFingerprint ?? null,
      details,
      requestHash: valid.requestHash,
    };
  }
}

/**
 * "The same checkout": the signed request (key order aside) and which card it carried (scheme and last
 * four: the card field is not signed, and the full number is never kept, not even hashed).
 */
function requestHash(request: CheckoutRequestDto, card: CardInput | null): string {
  const canonical = JSON.stringify(sortKeys(request));
  return createHash('sha256').update(canonical).update(card ? `|${card.brand}|${card.number.slice(-4)}` : '|').digest('hex');
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]));
  }
  return value;
}
