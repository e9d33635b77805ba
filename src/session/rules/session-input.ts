import { DomainError, invalidRequest } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-codes';
import { FieldError, FieldErrorCode } from '../../common/errors/field-error';
import { isSupportedCurrency } from '../../common/money/currencies';
import { fitsCurrency, toMinorUnits } from '../../common/money/money';
import { SessionRequestDto } from '../dto/session-request.dto';
import { StoredDiscount, StoredItem, StoredShipping } from '../session.entity';
import { checkAddress } from './address-rules';
import { checkBillingProfile, NormalizedBillingProfile } from './billing-profile-rules';
import { computeTotal, isStorableTotal } from './session-totals';

/** How the request names its billing profile: exactly one of the three. */
export type BillingSource =
  | { kind: 'new'; profile: NormalizedBillingProfile }
  | { kind: 'reference'; reference: string }
  | { kind: 'id'; id: string };

/** A session request that passed every rule, with amounts in integer minor units. */
export interface SessionInput {
  merchantReference: string;
  autoCapture: boolean;
  completeUrl: string;
  cancelUrl: string;
  currency: string;
  items: StoredItem[];
  discounts: StoredDiscount[] | null;
  shipping: StoredShipping | null;
  taxAmount: number | null;
  taxQuoteId: string | null;
  totalAmount: number;
  viaAgent: boolean;
  allowContract: boolean | null;
  openContract: boolean | null;
  billing: BillingSource;
  /** BillingProfileReference as sent at the root, echoed back. */
  rootBillingReference: string | null;
}

const BILLING_FIELDS = ['BillingProfile', 'BillingProfileReference', 'BillingProfileId'] as const;

/**
 * The rules that need more than one field (spec 2.1-2.6, DESIGN.md 4), run after the DTO's own checks.
 * A well-formed but unsupported currency is INVALID_CURRENCY; every other problem is INVALID_REQUEST.
 */
/** The tax quote a request names, as found for this merchant (null: no such quote). */
export interface QuotedTax {
  currency: string;
  taxAmountMinor: number;
}

export function checkSessionRequest(dto: SessionRequestDto, now: Date, quote: QuotedTax | null = null): SessionInput {
  if (!isSupportedCurrency(dto.Currency)) throw new DomainError(ErrorCode.InvalidCurrency);
  const currency = dto.Currency;
  const errors: FieldError[] = [];

  const minor = (value: number, field: string): number => {
    if (fitsCurrency(value, currency)) return toMinorUnits(value, currency);
    errors.push({ Field: field, Code: FieldErrorCode.Invalid, Message: `${field} has more decimals than ${currency} allows` });
    return 0;
  };

  const items = dto.Items.map((item, i) => ({
    name: item.Name,
    amount: minor(item.Amount, `Items[${i}].Amount`),
    quantity: item.Quantity,
  }));
  const discounts = dto.Discounts?.map((discount, i) => {
    if (discount.Amount === 0) {
      errors.push({ Field: `Discounts[${i}].Amount`, Code: FieldErrorCode.Invalid, Message: `Discounts[${i}].Amount must be greater than 0` });
    }
    return { name: discount.Name, amount: minor(discount.Amount, `Discounts[${i}].Amount`) };
  }) ?? null;
  let taxAmount = dto.TaxAmount === undefined ? null : minor(dto.TaxAmount, 'TaxAmount');
  if (dto.TaxQuoteId !== undefined) {
    if (!quote) {
      errors.push({ Field: 'TaxQuoteId', Code: FieldErrorCode.Invalid, Message: 'TaxQuoteId names no tax quote of this merchant' });
    } else if (quote.currency !== currency) {
      errors.push({ Field: 'TaxQuoteId', Code: FieldErrorCode.Invalid, Message: `TaxQuoteId is a quote in ${quote.currency}, the session is in ${currency}` });
    } else {
      taxAmount ??= quote.taxAmountMinor;
    }
  }

  let shipping: StoredShipping | null = null;
  if (dto.ShippingDetails) {
    const details = dto.ShippingDetails;
    errors.push(...checkAddress(details.Address, 'ShippingDetails.Address'));
    shipping = {
      shippingAmount: minor(details.ShippingAmount, 'ShippingDetails.ShippingAmount'),
      dutyAmount: minor(details.DutyAmount, 'ShippingDetails.DutyAmount'),
      name: details.Name,
      email: details.Email,
      phone: details.Phone,
      address: {
        street: details.Address.Street,
        city: details.Address.City,
        region: details.Address.Region,
        country: details.Address.Country,
        postcode: details.Address.Postcode,
      },
    };
  }

  const billing = checkBillingSource(dto, now, errors);

  const total = computeTotal({
    items,
    discounts: discounts ?? [],
    taxAmount: taxAmount ?? 0,
    shippingAmount: shipping?.shippingAmount ?? 0,
    dutyAmount: shipping?.dutyAmount ?? 0,
  });
  if (errors.length === 0 && total.isNegative()) {
    errors.push({ Field: 'Discounts', Code: FieldErrorCode.Invalid, Message: 'Discounts exceed the total: TotalAmount would be negative' });
  } else if (errors.length === 0 && !isStorableTotal(total)) {
    errors.push({ Field: 'Items', Code: FieldErrorCode.Invalid, Message: 'TotalAmount is too large' });
  }
  if (errors.length > 0 || !billing) throw invalidRequest(errors);

  return {
    merchantReference: dto.MerchantReference,
    autoCapture: dto.AutoCapture,
    completeUrl: dto.CompleteUrl,
    cancelUrl: dto.CancelUrl,
    currency,
    items,
    discounts,
    shipping,
    taxAmount,
    taxQuoteId: dto.TaxQuoteId?.toLowerCase() ?? null,
    totalAmount: total.toNumber(),
    viaAgent: dto.ViaAgent ?? false,
    allowContract: dto.AllowContract ?? null,
    openContract: dto.OpenContract ?? null,
    billing,
    rootBillingReference: dto.BillingProfileReference ?? null,
  };
}

function checkBillingSource(dto: SessionRequestDto, now: Date, errors: FieldError[]): BillingSource | null {
  const present = BILLING_FIELDS.filter((field) => dto[field] !== undefined);
  if (present.length !== 1) {
    const fields = present.length === 0 ? BILLING_FIELDS : present;
    for (const field of fields) {
      errors.push({
        Field: field,
        Code: present.length === 0 ? FieldErrorCode.Missing : FieldErrorCode.Conflict,
        Message: `Exactly one of ${BILLING_FIELDS.join(', ')} must be supplied`,
      });
    }
    return null;
  }
  if (dto.BillingProfile) {
    const checked = checkBillingProfile(dto.BillingProfile, now);
    errors.push(...checked.errors);
    return { kind: 'new', profile: checked.profile };
  }
  if (dto.BillingProfileReference !== undefined) return { kind: 'reference', reference: dto.BillingProfileReference };
  return { kind: 'id', id: dto.BillingProfileId!.toLowerCase() };
}
