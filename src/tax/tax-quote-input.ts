import { checkVAT, countries as vatCountries } from 'jsvat-next';
import { DomainError, invalidRequest } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-codes';
import { FieldError, FieldErrorCode } from '../common/errors/field-error';
import { isCountryCode, resolveSubdivision } from '../common/iso/countries';
import { isSupportedCurrency } from '../common/money/currencies';
import { fitsCurrency, toMinorUnits } from '../common/money/money';
import { TaxAddressDto, TaxQuoteRequestDto } from './dto/tax-quote-request.dto';
import { EU_MEMBER_STATES } from './rates/reduced-rates';
import { Destination } from './rates/tax-rate.strategy';
import { DEFAULT_TAX_CODE } from './tax-codes';

export interface QuoteItemInput {
  sku: string;
  description: string | undefined;
  taxIncluded: boolean;
  quantity: number;
  amountMinor: number;
  taxCode: string;
}

export interface QuoteInput {
  currency: string;
  destination: Destination;
  /** Ship-from country, when known. */
  origin: string | null;
  /** The buyer's EU VAT number's country, when it is a valid EU VAT number. */
  buyerVatCountry: string | null;
  items: QuoteItemInput[];
}

/**
 * The rules after the DTO's own checks: a supported currency (else INVALID_CURRENCY), real countries,
 * regions that are subdivisions of their country, the currency's decimals, a well-formed VAT number.
 */
export function checkTaxQuoteRequest(dto: TaxQuoteRequestDto, needsRegion: (country: string) => boolean): QuoteInput {
  if (!isSupportedCurrency(dto.Currency)) throw new DomainError(ErrorCode.InvalidCurrency);
  const errors: FieldError[] = [];
  const destination = checkAddress(dto.ShippingAddress, 'ShippingAddress', needsRegion, errors);
  const origin = dto.WarehouseAddress ? checkAddress(dto.WarehouseAddress, 'WarehouseAddress', () => false, errors) : null;

  const items = dto.Items.map((item, i) => {
    if (!fitsCurrency(item.Amount, dto.Currency)) {
      errors.push({ Field: `Items[${i}].Amount`, Code: FieldErrorCode.Invalid, Message: `Items[${i}].Amount has more decimals than ${dto.Currency} allows` });
    }
    return {
      sku: item.Sku,
      description: item.Description,
      taxIncluded: item.TaxIncluded ?? false,
      quantity: item.Quantity ?? 1,
      amountMinor: fitsCurrency(item.Amount, dto.Currency) ? toMinorUnits(item.Amount, dto.Currency) : 0,
      taxCode: item.TaxCode ?? DEFAULT_TAX_CODE,
    };
  });

  let buyerVatCountry: string | null = null;
  if (dto.BusinessIdentificationNumber !== undefined && EU_MEMBER_STATES.has(destination.country)) {
    // Only an EU destination gives the number a meaning here; elsewhere it is kept but not judged.
    const result = checkVAT(dto.BusinessIdentificationNumber.replace(/[\s.-]/g, '').toUpperCase(), vatCountries);
    if (!result.isValid || !result.country) {
      errors.push({
        Field: 'BusinessIdentificationNumber',
        Code: FieldErrorCode.Invalid,
        Message: 'BusinessIdentificationNumber is not a well-formed EU VAT number (country prefix and check digits)',
      });
    } else {
      buyerVatCountry = result.country.isoCode.short;
    }
  }

  if (errors.length) throw invalidRequest(errors);
  return { currency: dto.Currency, destination, origin: origin?.country ?? null, buyerVatCountry, items };
}

function checkAddress(
  address: TaxAddressDto,
  path: string,
  needsRegion: (country: string) => boolean,
  errors: FieldError[],
): Destination {
  const country = address.Country;
  if (!isCountryCode(country)) {
    errors.push({ Field: `${path}.Country`, Code: FieldErrorCode.Invalid, Message: `${path}.Country is not an ISO 3166-1 country` });
    return { country, region: null };
  }
  if (address.Region === undefined) {
    if (needsRegion(country)) {
      errors.push({ Field: `${path}.Region`, Code: FieldErrorCode.Missing, Message: `${path}.Region is required for ${country}: its tax depends on it` });
    }
    return { country, region: null };
  }
  const region = resolveSubdivision(country, address.Region);
  if (!region) {
    errors.push({ Field: `${path}.Region`, Code: FieldErrorCode.Invalid, Message: `${path}.Region is not an ISO 3166-2 subdivision of ${country}` });
  }
  return { country, region };
}
