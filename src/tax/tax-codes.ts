/**
 * Product tax codes (Avalara-style, as the real API's responses show "P0000000"). An item without a
 * TaxCode is general merchandise. Each code names the rate category it falls under.
 */
export enum TaxCategory {
  Standard = 'standard',
  Books = 'books',
  Food = 'food',
  Exempt = 'exempt',
}

export const TAX_CODES: Record<string, { category: TaxCategory; description: string }> = {
  P0000000: { category: TaxCategory.Standard, description: 'General tangible goods' },
  PB100000: { category: TaxCategory.Books, description: 'Printed books' },
  PF050000: { category: TaxCategory.Food, description: 'Food and groceries for home consumption' },
  NT000000: { category: TaxCategory.Exempt, description: 'Non-taxable items (gift cards, donations)' },
};

export const DEFAULT_TAX_CODE = 'P0000000';
