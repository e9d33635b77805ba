/** Valid request bodies to start from; tests override the parts they are about. */
export function sessionBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    MerchantReference: `ref-${Math.random().toString(36).slice(2)}`,
    AutoCapture: true,
    CompleteUrl: 'https://shop.example.com/complete?session={SessionId}',
    CancelUrl: 'https://shop.example.com/cart',
    Currency: 'USD',
    Items: [{ Name: 'T-shirt', Amount: 19.99, Quantity: 1 }],
    BillingProfile: billingProfile(),
    ...overrides,
  };
}

export function billingProfile(overrides: Record<string, unknown> = {}, address: Record<string, unknown> = {}) {
  return {
    Name: 'Jo Doe',
    Email: 'jo@example.com',
    Address: { Street: '1 Main St', City: 'Toronto', Region: 'ON', Country: 'CA', Postcode: 'M5V 2T6', ...address },
    ...overrides,
  };
}

/** Billing profiles that satisfy each country's rules. */
export const VALID_PROFILES: Record<string, Record<string, unknown>> = {
  BR: {
    Name: 'Ana Souza',
    Email: 'ana@example.com.br',
    BirthDate: '1990-05-17',
    NationalIdentifier: '529.982.247-25',
    Address: { Street: 'Av. Paulista 1000', City: 'São Paulo', Region: 'SP', Country: 'BR', Postcode: '01310-100' },
  },
  AR: {
    Name: 'Juan Pérez',
    Email: 'juan@example.com.ar',
    NationalIdentifier: '20-12345678-6',
    Address: { Street: 'Av. Corrientes 1234', City: 'Buenos Aires', Country: 'AR', Postcode: 'C1043' },
  },
  IN: {
    Name: 'Priya Sharma',
    Email: 'priya@example.in',
    NationalIdentifier: 'ABCPE1234F',
    Address: { Street: '12 MG Road', City: 'Bengaluru', Country: 'IN', Postcode: '560001' },
  },
  US: {
    Name: 'Sam Smith',
    Email: 'sam@example.com',
    Address: { Street: '1 Infinite Loop', City: 'Cupertino', Region: 'CA', Country: 'US', Postcode: '95014' },
  },
  CA: billingProfile(),
  MX: {
    Name: 'Luis García',
    Email: 'luis@example.mx',
    Address: { Street: 'Av. Reforma 222', City: 'Ciudad de México', Region: 'CMX', Country: 'MX', Postcode: '06600' },
  },
  DE: {
    Name: 'Eva Müller',
    Email: 'eva@example.de',
    Address: { Street: 'Unter den Linden 1', City: 'Berlin', Country: 'DE' },
  },
};

/**
 * The valid billing profile of a country with some fields changed; an undefined value drops the field
 * (JSON.stringify leaves it out), so `profileFor('BR', { BirthDate: undefined })` lacks BirthDate.
 */
export function profileFor(
  country: string,
  overrides: Record<string, unknown> = {},
  address: Record<string, unknown> = {},
): Record<string, unknown> {
  const base = VALID_PROFILES[country];
  return { ...base, ...overrides, Address: { ...(base.Address as Record<string, unknown>), ...address } };
}

/** Valid ShippingDetails (to Toronto, CA); tests override the parts they are about. */
export function shippingDetails(overrides: Record<string, unknown> = {}, address: Record<string, unknown> = {}) {
  return {
    ShippingAmount: 5,
    DutyAmount: 2.5,
    Name: 'Jo Doe',
    Email: 'jo@example.com',
    Phone: '+1 416 555 0100',
    Address: { Street: '1 Main St', City: 'Toronto', Region: 'ON', Country: 'CA', Postcode: 'M5V 2T6', ...address },
    ...overrides,
  };
}
