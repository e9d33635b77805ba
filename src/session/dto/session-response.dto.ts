import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SessionState } from '../session-state';

class ItemView {
  @ApiProperty() Name: string;
  @ApiProperty() Amount: number;
  @ApiProperty() Quantity: number;
}

class DiscountView {
  @ApiProperty() Name: string;
  @ApiProperty() Amount: number;
}

export class AddressView {
  @ApiProperty() Street: string;
  @ApiProperty() City: string;
  @ApiPropertyOptional() Region?: string;
  @ApiProperty() Country: string;
  @ApiPropertyOptional() Postcode?: string;
}

export class BillingProfileView {
  @ApiProperty({ format: 'uuid' }) BillingProfileId: string;
  @ApiPropertyOptional() BillingProfileReference?: string;
  @ApiProperty() Name: string;
  @ApiProperty() Email: string;
  @ApiPropertyOptional() Phone?: string;
  @ApiPropertyOptional() BirthDate?: string;
  @ApiPropertyOptional() NationalIdentifier?: string;
  @ApiPropertyOptional() Company?: string;
  @ApiProperty({ type: AddressView }) Address: AddressView;
}

class ShippingDetailsView {
  @ApiProperty() ShippingAmount: number;
  @ApiProperty() DutyAmount: number;
  @ApiProperty() Name: string;
  @ApiProperty() Email: string;
  @ApiProperty() Phone: string;
  @ApiProperty({ type: AddressView }) Address: AddressView;
}

/** Spec 2.7: the order a session completed into (State upper-case, e.g. PAYMENTAUTHORIZED). */
export class SessionOrderView {
  @ApiProperty({ format: 'uuid' }) OrderId: string;
  @ApiProperty({ example: 'PROCESSED' }) State: string;
  @ApiProperty() MerchantReference: string;
  @ApiProperty({ format: 'uuid' }) SessionId: string;
  @ApiPropertyOptional({ description: 'Bank transfer: where the shopper sends the money (spec 2.8)' }) BankDetails?: Record<string, string>;
}

export class SessionView {
  @ApiProperty({ format: 'uuid' }) SessionId: string;
  @ApiProperty({ enum: SessionState }) State: SessionState;
  @ApiProperty() MerchantReference: string;
  @ApiProperty() AutoCapture: boolean;
  @ApiProperty() CompleteUrl: string;
  @ApiProperty() CancelUrl: string;
  @ApiProperty() Currency: string;
  @ApiProperty({ type: [ItemView] }) Items: ItemView[];
  @ApiProperty({ type: BillingProfileView }) BillingProfile: BillingProfileView;
  @ApiPropertyOptional({ description: 'Returned when supplied in the request' }) BillingProfileReference?: string;
  @ApiProperty({ format: 'uuid' }) BillingProfileId: string;
  @ApiProperty() ViaAgent: boolean;
  @ApiPropertyOptional({ type: ShippingDetailsView }) ShippingDetails?: ShippingDetailsView;
  @ApiPropertyOptional() TaxAmount?: number;
  @ApiPropertyOptional({ format: 'uuid' }) TaxQuoteId?: string;
  @ApiPropertyOptional({ type: [DiscountView] }) Discounts?: DiscountView[];
  @ApiPropertyOptional() AllowContract?: boolean;
  @ApiPropertyOptional() OpenContract?: boolean;
  @ApiProperty({ description: 'TaxAmount + ShippingAmount + DutyAmount + Σ(Amount × Quantity) − Σ Discounts' })
  TotalAmount: number;
  @ApiProperty({ format: 'date-time', description: 'When a CREATED session becomes EXPIRED' }) ExpiresAt: string;
  @ApiPropertyOptional({ description: 'REDIRECTED: where the shopper confirms the payment (3-D Secure, wallet)' }) RedirectUrl?: string;
  @ApiPropertyOptional({ description: 'COMPLETED: the payment method used' }) PaymentMethod?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'COMPLETED: when the payment was made' }) PaymentDate?: string;
  @ApiPropertyOptional({ type: SessionOrderView, description: 'COMPLETED: the order' }) Order?: SessionOrderView;
}
