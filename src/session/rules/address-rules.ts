import { postcodeValidator } from 'postcode-validator';
import { FieldError, FieldErrorCode } from '../../common/errors/field-error';
import { isCountryCode, resolveSubdivision } from '../../common/iso/countries';
import { AddressDto } from '../dto/address.dto';

/** Countries whose addresses need an ISO 3166-2 Region. */
export const REGION_COUNTRIES = ['CA', 'MX', 'US'];
/** Countries whose addresses need a Postcode, checked against the country's format. */
export const POSTCODE_COUNTRIES = ['BR', 'CA', 'MX', 'US'];

/** Country, Region and Postcode rules of spec section 2.5 with DESIGN.md section 4. */
export function checkAddress(address: AddressDto, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const { Country: country } = address;
  if (!isCountryCode(country)) {
    return [{ Field: `${path}.Country`, Code: FieldErrorCode.Invalid, Message: `${path}.Country is not an ISO 3166-1 country` }];
  }
  if (REGION_COUNTRIES.includes(country)) {
    if (address.Region === undefined) {
      errors.push({ Field: `${path}.Region`, Code: FieldErrorCode.Missing, Message: `${path}.Region is required for ${country}` });
    } else if (!resolveSubdivision(country, address.Region)) {
      errors.push({
        Field: `${path}.Region`,
        Code: FieldErrorCode.Invalid,
        Message: `${path}.Region must be an ISO 3166-2 subdivision of ${country} (e.g. ${country}-${exampleRegion(country)})`,
      });
    }
  }
  if (POSTCODE_COUNTRIES.includes(country)) {
    if (address.Postcode === undefined) {
      errors.push({ Field: `${path}.Postcode`, Code: FieldErrorCode.Missing, Message: `${path}.Postcode is required for ${country}` });
    } else if (!postcodeValidator(address.Postcode, country)) {
      errors.push({ Field: `${path}.Postcode`, Code: FieldErrorCode.Invalid, Message: `${path}.Postcode is not a valid ${country} postcode` });
    }
  }
  return errors;
}

function exampleRegion(country: string): string {
  return { CA: 'ON', MX: 'CMX', US: 'NY' }[country] ?? 'XX';
}
