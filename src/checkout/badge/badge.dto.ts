import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsIP, IsOptional, IsUUID } from 'class-validator';
import { NullAsAbsent, Pattern } from '../../common/validation/validators';

/** The JSON inside `request` for GET /badge. */
export class BadgeRequestDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'must be a UUID' })
  MerchantId: string;

  @ApiProperty({ enum: ['light', 'dark'], required: false, default: 'light' })
  @IsOptional()
  @NullAsAbsent()
  @IsIn(['light', 'dark'])
  Theme?: 'light' | 'dark';

  @ApiProperty({ required: false, description: "The shopper's IP when the merchant's server calls for them" })
  @IsOptional()
  @NullAsAbsent()
  @IsIP(undefined, { message: 'must be an IPv4 or IPv6 address' })
  ConsumerIpAddress?: string;

  @Pattern(/^[A-Z]{3}$/, 'must be three upper-case letters (ISO 4217)', { required: false })
  Currency?: string;

  @Pattern(/^[a-z]{2}(-[A-Z]{2})?$/, 'must be a locale like en or en-GB', { required: false })
  Locale?: string;
}

export interface BadgeView {
  Text: string;
  Html: string;
  ImageUrl: string;
  FlagImageUrl: string;
  TermsOfServiceUrl: string;
  MerchantOfRecord: string;
  MerchantOfRecordUrl: string;
  MerchantName: string;
}
