import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { CURRENCY_CODE_FORMAT } from '../../common/money/currencies';
import { Flag, Pattern } from '../../common/validation/validators';
import type { PaymentMethodClass } from './payment-method-catalogue';

/**
 * The JSON inside `request` for GET /getPaymentMethods. The formats are checked here (RequestInvalid);
 * whether the country exists and the currency is supported is answered by the service with its own
 * codes (CountryInvalid, CurrencyNotFound).
 */
export class PaymentMethodsRequestDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'must be a UUID' })
  MerchantId: string;

  @Pattern(/^[A-Z]{2}$/, 'must be two upper-case letters (ISO 3166-1 alpha-2)', { description: "The shopper's country", example: 'BR' })
  Country: string;

  @Pattern(CURRENCY_CODE_FORMAT, 'must be three upper-case letters (ISO 4217)', { description: 'The currency the shopper pays in', example: 'BRL' })
  Currency: string;

  @Flag({ required: false, default: false, description: 'An agent takes the payment for the shopper (mail/telephone order): cards only' })
  ViaAgent?: boolean;
}

export interface PaymentMethodView {
  /** The code to send as PaymentMethod in checkout. */
  Name: string;
  Class: PaymentMethodClass;
  Label: string;
  DelayedCapture: boolean;
}

export interface PaymentMethodsView {
  PaymentMethods: PaymentMethodView[];
}
