import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsObject, IsOptional, Max, Min, ValidateNested } from 'class-validator';
import { Amount, Flag, Nested, NullAsAbsent, Pattern, Text } from '../../common/validation/validators';
import { TAX_CODES } from '../tax-codes';

export class TaxAddressDto {
  @Text(255, { required: false })
  Street?: string;

  @Text(255, { required: false })
  City?: string;

  @Text(10, { required: false, description: 'ISO 3166-2 subdivision ("ON" or "CA-ON"); required for US and CA', example: 'CA' })
  Region?: string;

  @Pattern(/^[A-Z]{2}$/, 'must be an upper-case ISO 3166-1 alpha-2 code', { example: 'US' })
  Country: string;

  @Text(20, { required: false })
  Postcode?: string;
}

export class TaxQuoteItemDto {
  @Text(255, { example: 'SKU-1' })
  Sku: string;

  @Text(500, { required: false })
  Description?: string;

  @Flag({ required: false, description: 'true: Amount already contains the tax, which is extracted; default false' })
  TaxIncluded?: boolean;

  @ApiProperty({ type: Number, minimum: 1, maximum: 1_000_000, required: false, description: 'Default 1' })
  @IsOptional()
  @NullAsAbsent()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  Quantity?: number;

  @Amount({ description: 'Amount of the whole line (all units), in the quote currency', example: 23.99 })
  Amount: number;

  @ApiProperty({ required: false, enum: Object.keys(TAX_CODES), description: 'Product tax code; default P0000000 (general goods)' })
  @IsOptional()
  @NullAsAbsent()
  @IsIn(Object.keys(TAX_CODES), { message: `must be one of ${Object.keys(TAX_CODES).join(', ')}` })
  TaxCode?: string;
}

export class TaxQuoteRequestDto {
  @Pattern(/^[A-Z]{3}$/, 'must be three upper-case letters (ISO 4217)', { example: 'USD' })
  Currency: string;

  @Text(255, { required: false, example: 'cart-77' })
  Reference?: string;

  @ApiProperty({ type: [TaxQuoteItemDto], minItems: 1, maxItems: 250 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(250)
  @IsObject({ each: true, message: 'must be a list of objects' })
  @ValidateNested({ each: true })
  @Type(() => TaxQuoteItemDto)
  Items: TaxQuoteItemDto[];

  @Nested(() => TaxAddressDto, { description: 'Destination: taxes are those of this address' })
  ShippingAddress: TaxAddressDto;

  @Nested(() => TaxAddressDto, { required: false, description: 'Ship-from address: decides domestic vs cross-border' })
  WarehouseAddress?: TaxAddressDto;

  @Text(50, { required: false, description: 'Buyer VAT number; an EU business buying across a border pays no VAT (reverse charge)' })
  BusinessIdentificationNumber?: string;
}
