import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsObject, IsOptional, IsUUID, ValidateNested } from 'class-validator';
import { Amount, Flag, Nested, NullAsAbsent, Pattern, RedirectUrl, Text } from '../../common/validation/validators';
import { BillingProfileDto } from './billing-profile.dto';
import { DiscountDto, ItemDto } from './item.dto';
import { ShippingDetailsDto } from './shipping-details.dto';

/** Body of POST and PUT /session: PUT replaces the whole session, so both take the same shape. */
export class SessionRequestDto {
  @Text(255, { description: 'Unique per merchant', example: 'order-1001' })
  MerchantReference: string;

  @Flag({ description: 'Capture the order automatically after authorization' })
  AutoCapture: boolean;

  @RedirectUrl({ example: 'https://shop.example.com/done?session={SessionId}' })
  CompleteUrl: string;

  @RedirectUrl({ example: 'https://shop.example.com/cart' })
  CancelUrl: string;

  @Pattern(/^[A-Z]{3}$/, 'must be three upper-case letters (ISO 4217)', { example: 'USD' })
  Currency: string;

  @ApiProperty({ type: [ItemDto], minItems: 1, maxItems: 100 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsObject({ each: true, message: 'must be a list of objects' })
  @ValidateNested({ each: true })
  @Type(() => ItemDto)
  Items: ItemDto[];

  @Nested(() => BillingProfileDto, { required: false, description: 'Exactly one of the three billing fields' })
  BillingProfile?: BillingProfileDto;

  @Text(255, { required: false, description: 'Reference of an existing billing profile of this merchant' })
  BillingProfileReference?: string;

  @ApiProperty({ type: String, format: 'uuid', required: false, description: 'Id of an existing billing profile' })
  @IsOptional()
  @NullAsAbsent()
  @IsUUID('all', { message: 'must be a UUID' })
  BillingProfileId?: string;

  @Flag({ required: false })
  ViaAgent?: boolean;

  @Nested(() => ShippingDetailsDto, { required: false, description: 'Required when physical goods are shipped' })
  ShippingDetails?: ShippingDetailsDto;

  @Amount({ required: false, description: 'Defaults to the TaxAmount of the quote named by TaxQuoteId' })
  TaxAmount?: number;

  @ApiProperty({ type: String, format: 'uuid', required: false, description: 'A tax quote of this merchant (POST /v1/tax/quote) in the same currency' })
  @IsOptional()
  @NullAsAbsent()
  @IsUUID('all', { message: 'must be a UUID' })
  TaxQuoteId?: string;

  @ApiProperty({ type: [DiscountDto], required: false, maxItems: 50 })
  @IsOptional()
  @NullAsAbsent()
  @IsArray()
  @ArrayMaxSize(50)
  @IsObject({ each: true, message: 'must be a list of objects' })
  @ValidateNested({ each: true })
  @Type(() => DiscountDto)
  Discounts?: DiscountDto[];

  @Flag({ required: false })
  AllowContract?: boolean;

  @Flag({ required: false })
  OpenContract?: boolean;
}
