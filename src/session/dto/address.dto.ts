import { Pattern, Text } from '../../common/validation/validators';

export class AddressDto {
  @Text(255, { example: '1 Main St' })
  Street: string;

  @Text(255, { example: 'Toronto' })
  City: string;

  @Text(10, {
    required: false,
    description: 'ISO 3166-2 subdivision, as "ON" or "CA-ON"; required for CA, MX, US',
    example: 'ON',
  })
  Region?: string;

  @Pattern(/^[A-Z]{2}$/, 'must be an upper-case ISO 3166-1 alpha-2 code', { example: 'CA' })
  Country: string;

  @Text(20, { required: false, description: 'Required for BR, CA, MX, US', example: 'M5V 2T6' })
  Postcode?: string;
}

/** The billing address also accepts Phone, as the spec's examples place it there. */
export class BillingAddressDto extends AddressDto {
  @Text(50, { required: false, description: 'Alias of BillingProfile.Phone (as in the spec examples)' })
  Phone?: string;
}
