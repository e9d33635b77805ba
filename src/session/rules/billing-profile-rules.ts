import { FieldError, FieldErrorCode } from '../../common/errors/field-error';
import { classifyNationalId, NATIONAL_ID_COUNTRIES } from '../../common/iso/national-id';
import { BillingProfileDto } from '../dto/billing-profile.dto';
import { checkAddress } from './address-rules';

/** A billing profile with its aliases folded in (Birthdate, Address.Phone). */
export interface NormalizedBillingProfile {
  reference: string | null;
  name: string;
  email: string;
  phone: string | null;
  birthDate: string | null;
  nationalIdentifier: string | null;
  company: string | null;
  street: string;
  city: string;
  region: string | null;
  country: string;
  postcode: string | null;
}

const PATH = 'BillingProfile';

/** Country rules for billing data (spec 2.3, DESIGN.md 4); returns the normalized profile or the errors. */
export function checkBillingProfile(
  profile: BillingProfileDto,
  today: Date,
): { profile: NormalizedBillingProfile; errors: FieldError[] } {
  const errors = checkAddress(profile.Address, `${PATH}.Address`);
  const conflict = (field: string, alias: string) =>
    errors.push({ Field: `${PATH}.${alias}`, Code: FieldErrorCode.Conflict, Message: `${PATH}.${alias} differs from ${PATH}.${field}` });

  if (profile.BirthDate && profile.Birthdate && profile.BirthDate !== profile.Birthdate) conflict('BirthDate', 'Birthdate');
  if (profile.Phone && profile.Address.Phone && profile.Phone !== profile.Address.Phone) conflict('Phone', 'Address.Phone');
  const birthDate = profile.BirthDate ?? profile.Birthdate ?? null;
  const country = profile.Address.Country;

  if (birthDate !== null && !isPastCalendarDate(birthDate, today)) {
    // Name the field as the request spelled it (the alias Birthdate when BirthDate was not sent).
    const field = `${PATH}.${profile.BirthDate ? 'BirthDate' : 'Birthdate'}`;
    errors.push({ Field: field, Code: FieldErrorCode.Invalid, Message: `${field} must be a real date in the past` });
  }
  if (country === 'BR' && birthDate === null) {
    errors.push({ Field: `${PATH}.BirthDate`, Code: FieldErrorCode.Missing, Message: `${PATH}.BirthDate is required for BR` });
  }
  if (NATIONAL_ID_COUNTRIES.includes(country)) {
    if (profile.NationalIdentifier === undefined) {
      errors.push({
        Field: `${PATH}.NationalIdentifier`,
        Code: FieldErrorCode.Missing,
        Message: `${PATH}.NationalIdentifier is required for ${country}`,
      });
    } else {
      const kind = classifyNationalId(country, profile.NationalIdentifier);
      if (kind === null) {
        errors.push({
          Field: `${PATH}.NationalIdentifier`,
          Code: FieldErrorCode.Invalid,
          Message: `${PATH}.NationalIdentifier is not a valid ${NATIONAL_ID_NAMES[country]}`,
        });
      } else if (kind === 'CNPJ' && profile.Company === undefined) {
        errors.push({ Field: `${PATH}.Company`, Code: FieldErrorCode.Missing, Message: `${PATH}.Company is required with a CNPJ` });
      }
    }
  }

  return {
    errors,
    profile: {
      reference: profile.BillingProfileReference ?? null,
      name: profile.Name,
      email: profile.Email,
      phone: profile.Phone ?? profile.Address.Phone ?? null,
      birthDate,
      nationalIdentifier: profile.NationalIdentifier ?? null,
      company: profile.Company ?? null,
      street: profile.Address.Street,
      city: profile.Address.City,
      region: profile.Address.Region ?? null,
      country,
      postcode: profile.Address.Postcode ?? null,
    },
  };
}

const NATIONAL_ID_NAMES: Record<string, string> = {
  BR: 'CPF or CNPJ',
  AR: 'DNI or CUIT/CUIL',
  IN: 'Aadhaar number or PAN',
};

function isPastCalendarDate(value: string, today: Date): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value) && date <= today && value >= '1900-01-01';
}
