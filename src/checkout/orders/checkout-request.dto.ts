import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsEmail, IsIP, IsObject, IsOptional, IsUUID, ValidateBy, ValidateNested } from 'class-validator';
import { CURRENCY_CODE_FORMAT } from '../../common/money/currencies';
import { Flag, Nested, NullAsAbsent, Pattern, RedirectUrl, Text } from '../../common/validation/validators';

/** A decimal amount as the Checkout interface sends it: "12.50" (or a JSON number); decimals are checked per currency later. */
export const DecimalAmount = (options: ApiPropertyOptions & { required?: boolean } = {}) =>
  applyDecorators(
    ApiProperty({ type: String, example: '12.50', ...options }),
    ...(options.required === false ? [IsOptional(), NullAsAbsent()] : []),
    ValidateBy({
      name: 'isDecimalAmount',
      validator: {
        validate: (value: unknown) =>
          (typeof value === 'string' && /^\d{1,15}(\.\d{1,6})?$/.test(value)) || (typeof value === 'number' && Number.isFinite(value) && value >= 0),
        defaultMessage: () => 'must be a non-negative decimal amount such as "12.50"',
      },
    }),
  );

/** A count sent as a string ("2", as the real API) or a JSON integer. */
const Quantity = () =>
  applyDecorators(
    ApiProperty({ type: String, example: '1' }),
    ValidateBy({
      name: 'isQuantity',
      validator: {
        validate: (value: unknown) => (typeof value === 'string' && /^[1-9]\d{0,5}$/.test(value)) || (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 999_999),
        defaultMessage: () => 'must be a whole number from 1 to 999999',
      },
    }),
  );

const UuidField = (description: string) =>
  applyDecorators(ApiProperty({ type: String, format: 'uuid', required: false, description }), IsOptional(), NullAsAbsent(), IsUUID('all', { message: 'must be a UUID' }));

const List = (type: () => new () => object, options: { min?: number; max: number }) =>
  applyDecorators(
    ApiProperty({ type: [type()], minItems: options.min, maxItems: options.max, required: options.min !== undefined }),
    ...(options.min === undefined ? [IsOptional(), NullAsAbsent()] : []),
    IsArray(),
    ...(options.min !== undefined ? [ArrayMinSize(options.min)] : []),
    ArrayMaxSize(options.max),
    IsObject({ each: true, message: 'must be a list of objects' }),
    ValidateNested({ each: true }),
    Type(type),
  );

export class CheckoutItemDto {
  @Text(100)
  Sku: string;

  @Text(500, { required: false })
  Description?: string;

  @DecimalAmount({ description: 'Price of one unit, tax and duty excluded' })
  ConsumerPrice: string | number;

  @Quantity()
  Quantity: string | number;
}

/** A charge (added) or a discount (subtracted). */
export class CheckoutAdjustmentDto {
  @Text(100)
  Name: string;

  @DecimalAmount()
  ConsumerPrice: string | number;
}

export class CheckoutShippingDto {
  @DecimalAmount()
  ConsumerPrice: string | number;

  @DecimalAmount({ required: false })
  ConsumerTaxes?: string | number;

  @DecimalAmount({ required: false })
  ConsumerDuty?: string | number;
}

export class CheckoutConsumerDto {
  @Text(200)
  Name: string;

  @ApiProperty({ type: String, example: 'shopper@example.com' })
  @IsEmail({}, { message: 'must be an e-mail address' })
  Email: string;

  @Text(40, { required: false })
  Phone?: string;

  @Text(200, { required: false })
  Company?: string;

  @Text(500, { required: false, description: 'Street line' })
  Address?: string;

  @Text(100, { required: false })
  City?: string;

  @Text(100, { required: false })
  Region?: string;

  @Text(20, { required: false })
  PostalCode?: string;

  @Pattern(/^[A-Z]{2}$/, 'must be two upper-case letters (ISO 3166-1 alpha-2)', { example: 'US' })
  Country: string;
}

/** The JSON inside `request` for POST /checkout (spec 2.11, with the real API's Charges, Discounts, Shipping, Notify, Return). */
export class CheckoutRequestDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'must be a UUID' })
  MerchantId: string;

  @Text(200, { description: "The merchant's order number; also the idempotency key of this checkout" })
  ReferenceId: string;

  @Pattern(/^[A-Z0-9_]{2,30}$/, 'must be a payment method code such as VISA (see getPaymentMethods)', { example: 'VISA' })
  PaymentMethod: string;

  @DecimalAmount({ description: 'Items + charges − discounts + shipping, taxes and duty' })
  ConsumerTotal: string | number;

  @Pattern(CURRENCY_CODE_FORMAT, 'must be three upper-case letters (ISO 4217)', { example: 'USD' })
  ConsumerCurrency: string;

  @UuidField('A rate offer from getRates, to fix the exchange rate')
  RateOfferId?: string;

  @Flag({ required: false, default: true, description: 'Capture at once (default); false authorizes and leaves 7 days to capture' })
  Capture?: boolean;

  @Flag({ required: false, default: false })
  ViaAgent?: boolean;

  @Flag({ required: false, default: false })
  AcceptLiability?: boolean;

  @Flag({ required: false, default: false, description: 'Store the card as a contract for later merchant-initiated charges' })
  OpenContract?: boolean;

  @UuidField('gip_device_fingerprint from the fingerprint script')
  DeviceFingerprint?: string;

  @UuidField('Charge a stored contract instead of a card')
  ContractId?: string;

  @ApiProperty({ type: String, required: false })
  @IsOptional()
  @NullAsAbsent()
  @IsIP(undefined, { message: 'must be an IP address' })
  ConsumerIpAddress?: string;

  @IsOptional()
  @NullAsAbsent()
  @RedirectUrl({ required: false, description: 'Where the shopper returns after a Redirect or Challenge action' })
  Return?: string;

  @IsOptional()
  @NullAsAbsent()
  @RedirectUrl({ required: false, description: "Overrides the merchant's notify URL for this order" })
  Notify?: string;

  @List(() => CheckoutItemDto, { min: 1, max: 100 })
  Items: CheckoutItemDto[];

  @List(() => CheckoutAdjustmentDto, { max: 50 })
  Charges?: CheckoutAdjustmentDto[];

  @List(() => CheckoutAdjustmentDto, { max: 50 })
  Discounts?: CheckoutAdjustmentDto[];

  @Nested(() => CheckoutShippingDto, { required: false })
  Shipping?: CheckoutShippingDto;

  @Nested(() => CheckoutConsumerDto)
  Consumer: CheckoutConsumerDto;
}

/** capture and cancel: {MerchantId, OrderId}. */
export class OrderRequestDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'must be a UUID' })
  MerchantId: string;

  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'must be a UUID' })
  OrderId: string;
}

export class RefundRequestDto extends OrderRequestDto {
  @Text(200, { description: 'Idempotency key of this refund, unique per order' })
  ReferenceId: string;

  @DecimalAmount({ description: 'In the order currency; partial refunds allowed up to the captured total' })
  Amount: string | number;
}

/** query: by OrderId or by the checkout's ReferenceId. */
export class QueryRequestDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'must be a UUID' })
  MerchantId: string;

  @UuidField('The order')
  OrderId?: string;

  @Text(200, { required: false, description: 'The checkout ReferenceId' })
  ReferenceId?: string;
}
