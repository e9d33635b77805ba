import { isSupportedCurrency, SUPPORTED_CURRENCIES } from '../../common/money/currencies';
import { isCountryCode } from '../../common/iso/countries';
import { ANY, availablePaymentMethods, findPaymentMethod, isOffered, PAYMENT_METHODS } from './payment-method-catalogue';

const names = (country: string, currency: string, viaAgent = false) => availablePaymentMethods({ country, currency, viaAgent }).map((m) => m.name);

describe('payment-method catalogue', () => {
  it.each([
    // country, currency, must include, must not include
    ['BR', 'BRL', ['VISA', 'MC', 'ELO', 'HIPERCARD', 'PIX', 'BOLETO', 'PAYPAL'], ['OXXO', 'IDEAL', 'BANK_TRANSFER']],
    ['BR', 'USD', ['VISA', 'MC', 'PAYPAL'], ['BOLETO', 'PIX', 'ELO', 'HIPERCARD']],
    ['MX', 'MXN', ['VISA', 'OXXO', 'BANK_TRANSFER', 'PAYPAL'], ['BOLETO', 'PIX', 'ELO']],
    ['MX', 'USD', ['VISA'], ['OXXO', 'BANK_TRANSFER']],
    ['NL', 'EUR', ['VISA', 'MAESTRO', 'IDEAL', 'BANK_TRANSFER', 'PAYPAL'], ['BANCONTACT', 'BOLETO']],
    ['NL', 'USD', ['VISA'], ['IDEAL']],
    ['BE', 'EUR', ['BANCONTACT'], ['IDEAL']],
    ['AT', 'EUR', ['EPS'], ['IDEAL']],
    ['PL', 'PLN', ['P24', 'BLIK'], ['BANK_TRANSFER']],
    ['PL', 'EUR', ['P24'], ['BLIK']],
    ['CH', 'CHF', ['TWINT', 'MAESTRO'], ['BANK_TRANSFER']],
    ['PT', 'EUR', ['MULTIBANCO', 'BANK_TRANSFER'], []],
    ['US', 'USD', ['VISA', 'MC', 'AMEX', 'DISCOVER', 'JCB', 'DINERS', 'PAYPAL', 'BANK_TRANSFER'], ['BOLETO', 'OXXO', 'IDEAL', 'MAESTRO', 'PIX', 'ELO']],
    ['GB', 'GBP', ['BANK_TRANSFER', 'MAESTRO'], ['DISCOVER']],
    ['JP', 'JPY', ['JCB', 'BANK_TRANSFER', 'PAYPAL'], ['DISCOVER']],
    ['MY', 'MYR', ['PAYPAL'], []],
    ['SG', 'MYR', ['VISA'], ['PAYPAL']], // PayPal MYR only for in-country (Malaysian) accounts
    ['IN', 'INR', ['VISA', 'MC', 'JCB'], ['PAYPAL', 'BANK_TRANSFER']], // INR is not a PayPal currency
  ])('%s/%s offers %j and not %j', (country, currency, included, excluded) => {
    const offered = names(country, currency);
    for (const name of included) expect(offered).toContain(name);
    for (const name of excluded) expect(offered).not.toContain(name);
  });

  it.each([
    ['BR', 'BRL'],
    ['MX', 'MXN'],
    ['NL', 'EUR'],
    ['US', 'USD'],
    ['CH', 'CHF'],
  ])('ViaAgent in %s/%s: cards only, and not Maestro (no MOTO)', (country, currency) => {
    const viaAgent = availablePaymentMethods({ country, currency, viaAgent: true });
    expect(viaAgent.length).toBeGreaterThan(0);
    expect(viaAgent.every((m) => m.class === 'Card')).toBe(true);
    expect(viaAgent.map((m) => m.name)).not.toContain('MAESTRO');
    // Every card offered to the shopper directly that allows MOTO is still offered through an agent.
    const direct = availablePaymentMethods({ country, currency }).filter((m) => m.viaAgent);
    expect(viaAgent).toEqual(direct);
  });

  it('sorts cards first, then online, then offline, keeping table order within a class', () => {
    const rank = { Card: 0, Online: 1, Offline: 2 };
    for (const [country, currency] of [['BR', 'BRL'], ['MX', 'MXN'], ['NL', 'EUR'], ['PL', 'PLN'], ['US', 'USD']]) {
      const classes = availablePaymentMethods({ country, currency }).map((m) => rank[m.class]);
      expect(classes).toEqual([...classes].sort((a, b) => a - b));
    }
    expect(names('BR', 'BRL')).toEqual(['VISA', 'MC', 'AMEX', 'JCB', 'DINERS', 'ELO', 'HIPERCARD', 'PAYPAL', 'PIX', 'BOLETO']);
  });

  describe.each(PAYMENT_METHODS.map((m) => [m.name, m] as const))('%s', (_, method) => {
    it('delays capture exactly when it is a card; only cards may go through an agent', () => {
      expect(method.delayedCapture).toBe(method.class === 'Card');
      if (method.viaAgent) expect(method.class).toBe('Card');
    });

    it('is well-formed: an upper-case unique name, a label, real countries and supported currencies', () => {
      expect(method.name).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(PAYMENT_METHODS.filter((m) => m.name === method.name)).toHaveLength(1);
      expect(findPaymentMethod(method.name)).toBe(method);
      expect(method.label.length).toBeGreaterThan(0);
      expect(method.markets.length).toBeGreaterThan(0);
      for (const market of method.markets) {
        if (market.countries !== ANY) for (const c of market.countries) expect([c, isCountryCode(c)]).toEqual([c, true]);
        if (market.currencies !== ANY) for (const c of market.currencies) expect([c, isSupportedCurrency(c)]).toEqual([c, true]);
      }
    });

    it('is offered somewhere', () => {
      const somewhere = method.markets.some((market) => {
        const country = market.countries === ANY ? 'US' : market.countries[0];
        const currency = market.currencies === ANY ? [...SUPPORTED_CURRENCIES][0] : market.currencies[0];
        return isOffered(method, { country, currency });
      });
      expect(somewhere).toBe(true);
    });
  });

  it('delayed capture: exactly the card brands; ViaAgent: the card brands but Maestro', () => {
    const where = (test: (m: (typeof PAYMENT_METHODS)[number]) => boolean) => PAYMENT_METHODS.filter(test).map((m) => m.name).sort();
    const cards = ['AMEX', 'DINERS', 'DISCOVER', 'ELO', 'HIPERCARD', 'JCB', 'MAESTRO', 'MC', 'VISA'];
    expect(where((m) => m.delayedCapture)).toEqual(cards);
    expect(where((m) => m.viaAgent)).toEqual(cards.filter((n) => n !== 'MAESTRO'));
  });

  it('applies amount limits only when an amount is given (OXXO: 10 to 10,000 MXN)', () => {
    const oxxo = findPaymentMethod('OXXO')!;
    expect(isOffered(oxxo, { country: 'MX', currency: 'MXN' })).toBe(true);
    expect(isOffered(oxxo, { country: 'MX', currency: 'MXN', amount: 10 })).toBe(true);
    expect(isOffered(oxxo, { country: 'MX', currency: 'MXN', amount: 10_000 })).toBe(true);
    expect(isOffered(oxxo, { country: 'MX', currency: 'MXN', amount: 9.99 })).toBe(false);
    expect(isOffered(oxxo, { country: 'MX', currency: 'MXN', amount: 10_000.01 })).toBe(false);
    expect(availablePaymentMethods({ country: 'MX', currency: 'MXN', amount: 20_000 }).map((m) => m.name)).not.toContain('OXXO');
  });

  it('knows no method by an unknown or lower-case name', () => {
    expect(findPaymentMethod('BITCOIN')).toBeUndefined();
    expect(findPaymentMethod('visa')).toBeUndefined();
  });
});
