import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, MaxLength } from 'class-validator';
import { Amount, Nested, Text } from '../../common/validation/validators';
import { AddressDto } from './address.dto';

export class ShippingDetailsDto {
  @Amount({ description: 'Shipping charge excluding taxes and duties' })
  ShippingAmount: number;

  @Amount()
  DutyAmount: number;

  @Text(255)
  Name: string;

  @ApiProperty({ type: String, format: 'email', maxLength: 320 })
  @IsEmail({}, { message: 'must be an email address' })
  @MaxLength(320)
  Email: string;

  @Text(50)
  Phone: string;

  @Nested(() => AddressDto)
  Address: AddressDto;
}
