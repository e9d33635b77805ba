import { EU_MEMBER_STATES } from './rates/reduced-rates';
import { TaxComponent, TaxRateStrategy } from './rates/tax-rate.strategy';
import { TAX_CODES } from './tax-codes';
import { computeItemTax, ItemTax } from './tax-math';
import { QuoteInput } from './tax-quote-input';

export const REVERSE_CHARGE_LINE = { name: 'Reverse charge: VAT due by the customer (Art. 196 Directive 2006/112/EC)', type: 'reverse-charge', amount: 0 };

export interface QuotedItem extends ItemTax {
  taxCode: string;
}

/**
 * Taxes of every item: destination-based, by the item's tax code. An EU business buyer with a valid
 * VAT number of the destination member state, supplied from another member state or from outside,
 * pays no VAT (reverse charge); from a warehouse in the same country the supply is domestic and taxed.
 */
export function calculateQuote(input: QuoteInput, rates: TaxRateStrategy, on: Date): QuotedItem[] {
  const { destination, origin, buyerVatCountry } = input;
  const reverseCharge =
    EU_MEMBER_STATES.has(destination.country) && buyerVatCountry === destination.country && origin !== destination.country;

  return input.items.map((item) => {
    if (reverseCharge) return { taxCode: item.taxCode, net: item.amountMinor, tax: 0, lines: [REVERSE_CHARGE_LINE] };
    const components: TaxComponent[] = rates.componentsFor(destination, TAX_CODES[item.taxCode].category, on);
    return { taxCode: item.taxCode, ...computeItemTax(item.amountMinor, item.taxIncluded, components) };
  });
}
