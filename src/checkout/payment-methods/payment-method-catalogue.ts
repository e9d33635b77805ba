/**
 * The payment-method catalogue of the Checkout interface: which methods a shopper may use for a
 * Country, a Currency and whether an agent takes the payment (ViaAgent: mail/telephone order).
 *
 * Pure data and pure functions: no I/O, no clock. Every rule lives in the table below; each row says
 * where its rule comes from. Sources are the public payment-method pages of large PSPs (Adyen
 * "Payment methods" and Stripe "Payment method support" / per-method pages) and the schemes' own
 * descriptions, as commonly documented at the time of writing. They are simplifications: a PSP
 * contract may offer less (or more) than this, and the rows do not pretend to more precision than
 * those pages give (e.g. American Express acceptance by currency varies by acquirer and is not modelled).
 *
 * Shared rules, one per class (also checked by the unit test):
 * - Card: the shopper's card is authorised first and may be captured later (DelayedCapture), and an
 *   agent may key it in for the shopper (ViaAgent, MOTO) unless the row says otherwise.
 * - Online: the shopper is redirected (or scans a QR code) and approves in their bank/wallet app; the
 *   payment is final when approved, so no delayed capture, and no agent can do it for the shopper.
 * - Offline: the shopper pays later (voucher, bank transfer); nothing to capture later, no agent.
 *
 * Deliberately left out: SEPA Direct Debit (needs a mandate-collection step the checkout does not have),
 * giropay and Sofort (discontinued by their operators in 2024), buy-now-pay-later (needs financing fields).
 */

export type PaymentMethodClass = 'Card' | 'Online' | 'Offline';

/** Any country or any (supported) currency. */
export const ANY = '*';

/** Where a method is offered: any country of `countries` paying in any currency of `currencies`. */
export interface Market {
  countries: readonly string[] | typeof ANY;
  currencies: readonly string[] | typeof ANY;
}

export interface PaymentMethodDefinition {
  /** The code sent later as PaymentMethod in checkout. */
  name: string;
  class: PaymentMethodClass;
  /** Shown to the shopper. */
  label: string;
  /** Offered when any market matches; an empty list would mean never. */
  markets: readonly Market[];
  /** Authorise now, capture later (Capture=false). */
  delayedCapture: boolean;
  /** May be taken by an agent for the shopper (MOTO). */
  viaAgent: boolean;
  /** Per-payment limits in major units of the payment currency, when the method's operator sets one. */
  minAmount?: number;
  maxAmount?: number;
}

/** The euro area: Croatia joined on 2023-01-01, Bulgaria on 2026-01-01. */
const EURO_AREA = ['AT', 'BE', 'BG', 'CY', 'DE', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PT', 'SI', 'SK'];
/** The European Economic Area outside the euro area, plus GB and CH (Maestro's remaining footprint). */
const EUROPE_NON_EURO = ['CZ', 'DK', 'HU', 'PL', 'RO', 'SE', 'IS', 'LI', 'NO', 'GB', 'CH'];

/**
 * PayPal's payment currencies (PayPal developer docs, "Currency codes"). BRL, MYR and CNY are listed
 * there for in-country PayPal accounts only, so they get their own single-country markets.
 */
const PAYPAL_CURRENCIES = [
  'AUD', 'CAD', 'CZK', 'DKK', 'EUR', 'HKD', 'HUF', 'ILS', 'JPY', 'MXN', 'TWD', 'NZD', 'NOK', 'PHP', 'PLN', 'GBP', 'SGD', 'SEK', 'CHF', 'THB', 'USD',
];

const everywhere: Market = { countries: ANY, currencies: ANY };
const only = (countries: readonly string[] | typeof ANY, currencies: readonly string[] | typeof ANY): Market => ({ countries, currencies });

/** Class defaults (see the header); a row may still override them with `overrides`. */
const card = (name: string, label: string, markets: Market[], overrides: Partial<PaymentMethodDefinition> = {}): PaymentMethodDefinition => ({
  name, class: 'Card', label, markets, delayedCapture: true, viaAgent: true, ...overrides,
});
const online = (name: string, label: string, markets: Market[], overrides: Partial<PaymentMethodDefinition> = {}): PaymentMethodDefinition => ({
  name, class: 'Online', label, markets, delayedCapture: false, viaAgent: false, ...overrides,
});
const offline = (name: string, label: string, markets: Market[], overrides: Partial<PaymentMethodDefinition> = {}): PaymentMethodDefinition => ({
  name, class: 'Offline', label, markets, delayedCapture: false, viaAgent: false, ...overrides,
});

/** The catalogue. Order within a class is the order shown to the shopper. */
export const PAYMENT_METHODS: readonly PaymentMethodDefinition[] = [
  // --- Cards -------------------------------------------------------------------------------------
  // Visa and Mastercard: issued and accepted worldwide, in every currency an acquirer settles.
  card('VISA', 'Visa', [everywhere]),
  card('MC', 'Mastercard', [everywhere]),
  // American Express: accepted internationally; acquirer-specific currency limits are not modelled.
  card('AMEX', 'American Express', [everywhere]),
  // Discover: issued almost only in the United States; Adyen and Stripe document it for US shoppers.
  card('DISCOVER', 'Discover', [only(['US'], ANY)]),
  // JCB: Japanese scheme accepted internationally (Adyen, Stripe: worldwide).
  card('JCB', 'JCB', [everywhere]),
  // Diners Club: part of Discover Global Network, accepted internationally.
  card('DINERS', 'Diners Club', [everywhere]),
  // Maestro: Mastercard's debit brand, left mostly in Europe (being phased out there since 2023).
  // Maestro e-commerce requires the cardholder's authentication (3-D Secure), so no MOTO: Adyen lists
  // Maestro as not supported for MOTO.
  card('MAESTRO', 'Maestro', [only([...EURO_AREA, ...EUROPE_NON_EURO], ANY)], { viaAgent: false }),
  // Elo and Hipercard: Brazilian domestic schemes, processed in BRL by Brazilian acquirers (Adyen: Brazil, BRL).
  card('ELO', 'Elo', [only(['BR'], ['BRL'])]),
  card('HIPERCARD', 'Hipercard', [only(['BR'], ['BRL'])]),

  // --- Online (redirect / QR, approved by the shopper) -------------------------------------------
  // PayPal wallet: worldwide in PayPal's currencies; BRL, MYR, CNY for in-country accounts only.
  online('PAYPAL', 'PayPal', [only(ANY, PAYPAL_CURRENCIES), only(['BR'], ['BRL']), only(['MY'], ['MYR']), only(['CN'], ['CNY'])]),
  // Pix: Brazil's central-bank instant payments, BRL only (Adyen, Stripe: Brazil, BRL).
  online('PIX', 'Pix', [only(['BR'], ['BRL'])]),
  // iDEAL: Dutch bank payments, EUR only (Adyen, Stripe: Netherlands, EUR).
  online('IDEAL', 'iDEAL', [only(['NL'], ['EUR'])]),
  // Bancontact: Belgian scheme, EUR only (Adyen, Stripe: Belgium, EUR).
  online('BANCONTACT', 'Bancontact', [only(['BE'], ['EUR'])]),
  // EPS: Austrian bank payments, EUR only (Adyen, Stripe: Austria, EUR).
  online('EPS', 'EPS', [only(['AT'], ['EUR'])]),
  // Przelewy24: Polish bank payments in PLN or EUR (Stripe: Poland, EUR and PLN).
  online('P24', 'Przelewy24', [only(['PL'], ['PLN', 'EUR'])]),
  // BLIK: Polish mobile payments, PLN only (Adyen, Stripe: Poland, PLN).
  online('BLIK', 'BLIK', [only(['PL'], ['PLN'])]),
  // TWINT: Swiss mobile wallet, CHF only (Adyen, Stripe: Switzerland, CHF).
  online('TWINT', 'TWINT', [only(['CH'], ['CHF'])]),

  // --- Offline (the shopper pays later) ----------------------------------------------------------
  // Bank transfer to a virtual account in the shopper's local currency, where PSPs offer local
  // receiving accounts (Stripe bank transfers: EUR in the euro area, GBP in GB, USD in US, JPY in JP,
  // MXN in MX). The order stays Pending until the funds arrive.
  offline('BANK_TRANSFER', 'Bank transfer', [
    only(EURO_AREA, ['EUR']),
    only(['GB'], ['GBP']),
    only(['US'], ['USD']),
    only(['JP'], ['JPY']),
    only(['MX'], ['MXN']),
  ]),
  // Boleto Bancário: Brazilian payment slip paid at a bank or lottery outlet, BRL only (Adyen, Stripe: Brazil, BRL).
  offline('BOLETO', 'Boleto Bancário', [only(['BR'], ['BRL'])]),
  // OXXO: cash voucher paid at OXXO stores in Mexico, MXN only; Stripe documents 10 to 10,000 MXN per payment.
  offline('OXXO', 'OXXO', [only(['MX'], ['MXN'])], { minAmount: 10, maxAmount: 10_000 }),
  // Multibanco: Portuguese payment reference paid at an ATM or in home banking, EUR only (Adyen, Stripe: Portugal, EUR).
  offline('MULTIBANCO', 'Multibanco', [only(['PT'], ['EUR'])]),
];

export interface PaymentMethodQuery {
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  /** ISO 4217, upper case. */
  currency: string;
  viaAgent?: boolean;
  /** When known (at checkout), methods whose limits exclude it are left out; in major units. */
  amount?: number;
}

const CLASS_ORDER: Record<PaymentMethodClass, number> = { Card: 0, Online: 1, Offline: 2 };

const matches = (market: Market, country: string, currency: string) =>
  (market.countries === ANY || market.countries.includes(country)) && (market.currencies === ANY || market.currencies.includes(currency));

/** Whether one method may be used for this query. */
export function isOffered(method: PaymentMethodDefinition, query: PaymentMethodQuery): boolean {
  if (query.viaAgent && !method.viaAgent) return false;
  if (!method.markets.some((market) => matches(market, query.country, query.currency))) return false;
  if (query.amount !== undefined) {
    if (method.minAmount !== undefined && query.amount < method.minAmount) return false;
    if (method.maxAmount !== undefined && query.amount > method.maxAmount) return false;
  }
  return true;
}

/** The methods offered for a query: cards first, then online, then offline; table order within a class. */
export function availablePaymentMethods(query: PaymentMethodQuery): PaymentMethodDefinition[] {
  return PAYMENT_METHODS.filter((method) => isOffered(method, query)).sort((a, b) => CLASS_ORDER[a.class] - CLASS_ORDER[b.class]);
}

/** A method by its PaymentMethod code (exact, upper case), or undefined. */
export function findPaymentMethod(name: string): PaymentMethodDefinition | undefined {
  return PAYMENT_METHODS.find((method) => method.name === name);
}
