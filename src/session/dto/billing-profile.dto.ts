import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, MaxLength } from 'class-validator';
import { Nested, Pattern, Text } from '../../common/validation/validators';
import { BillingAddressDto } from './address.dto';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export class BillingProfileDto {
  @Text(255, { required: false, description: 'Merchant-supplied reference, unique per merchant' })
  BillingProfileReference?: string;

  @Text(255, { example: 'Ana Souza' })
  Name: string;

  @ApiProperty({ type: String, format: 'email', maxLength: 320, example: 'ana@example.com' })
  @IsEmail({}, { message: 'must be an email address' })
  @MaxLength(320)
  Email: string;

  @Text(50, { required: false })
  Phone?: string;

  @Pattern(DATE, 'must be a date as yyyy-MM-dd', { required: false, description: 'Required for BR', example: '1990-05-17' })
  BirthDate?: string;

  @Pattern(DATE, 'must be a date as yyyy-MM-dd', { required: false, description: 'Alias of BirthDate' })
  Birthdate?: string;

  @Text(50, { required: false, description: 'Required for BR (CPF/CNPJ), AR (DNI/CUIT) and IN (Aadhaar/PAN)' })
  NationalIdentifier?: string;

  @Text(255, { required: false, description: 'Required with a Brazilian CNPJ' })
  Company?: string;

  @Nested(() => BillingAddressDto)
  Address: BillingAddressDto;
}
