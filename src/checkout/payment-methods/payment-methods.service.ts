import { Injectable } from '@nestjs/common';
import { isCountryCode } from '../../common/iso/countries';
import { isSupportedCurrency } from '../../common/money/currencies';
import { CheckoutError, CheckoutErrorCode } from '../checkout-errors';
import { availablePaymentMethods } from './payment-method-catalogue';
import { PaymentMethodsView } from './payment-methods.dto';

/**
 * getPaymentMethods: the methods the catalogue offers for the shopper's Country, Currency and ViaAgent
 * (cards first, then online, then offline). The signed transport has already checked the merchant.
 */
@Injectable()
export class PaymentMethodsService {
  paymentMethods(country: string, currency: string, viaAgent: boolean): PaymentMethodsView {
    if (!isCountryCode(country)) throw new CheckoutError(CheckoutErrorCode.CountryInvalid, `Country ${country} is not an ISO 3166-1 country`);
    if (!isSupportedCurrency(currency)) throw new CheckoutError(CheckoutErrorCode.CurrencyNotFound, `Currency ${currency} is not supported`);
    return {
      PaymentMethods: availablePaymentMethods({ country, currency, viaAgent }).map((method) => ({
        Name: method.name,
        Class: method.class,
        Label: method.label,
        DelayedCapture: method.delayedCapture,
      })),
    };
  }
}
