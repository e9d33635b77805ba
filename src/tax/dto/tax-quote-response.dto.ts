import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

class TaxLineView {
  @ApiProperty({ example: 'US-AZ STATE SALES TAX' }) Name: string;
  @ApiProperty({ example: 'sales' }) Type: string;
  @ApiProperty({ example: 1.9 }) TaxAmount: number;
}

class TaxQuoteItemView {
  @ApiProperty({ format: 'uuid' }) Id: string;
  @ApiProperty() Sku: string;
  @ApiPropertyOptional() Description?: string;
  @ApiProperty() TaxIncluded: boolean;
  @ApiProperty() Quantity: number;
  @ApiProperty({ description: 'Net line amount (tax extracted when TaxIncluded was true)', example: 22.09 }) Amount: number;
  @ApiProperty({ example: 'P0000000' }) TaxCode: string;
  @ApiProperty({ example: 1.9 }) TaxAmount: number;
  @ApiProperty({ type: [TaxLineView] }) Tax: TaxLineView[];
}

class TaxAddressView {
  @ApiPropertyOptional() Street?: string;
  @ApiPropertyOptional() City?: string;
  @ApiPropertyOptional() Region?: string;
  @ApiProperty() Country: string;
  @ApiPropertyOptional() Postcode?: string;
}

export class TaxQuoteView {
  @ApiProperty({ format: 'uuid' }) Id: string;
  @ApiProperty() Currency: string;
  @ApiPropertyOptional() Reference?: string;
  @ApiProperty({ type: [TaxQuoteItemView] }) Items: TaxQuoteItemView[];
  @ApiProperty({ type: TaxAddressView }) ShippingAddress: TaxAddressView;
  @ApiPropertyOptional({ type: TaxAddressView }) WarehouseAddress?: TaxAddressView;
  @ApiPropertyOptional() BusinessIdentificationNumber?: string;
  @ApiProperty({ description: 'Σ item Amount (net)' }) Amount: number;
  @ApiProperty({ description: 'Σ item TaxAmount' }) TaxAmount: number;
  @ApiProperty({ format: 'date-time' }) CreatedAt: string;
}
