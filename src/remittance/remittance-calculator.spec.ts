import { calculateRemittance, convertMinor, FeeRule, paymentFee, RemittanceLineType, SettlementItem } from './remittance-calculator';

const NO_FEE: FeeRule = { percent: '0', fixedMinor: 0 };
let sequence = 0;

/** A payment (or, with refundId, a refund) of `consumerMinor` minor units of `currency` at `rate`. */
const item = (consumerMinor: number, currency: string, rate: string, overrides: Partial<SettlementItem> = {}): SettlementItem => ({
  orderId: `order-${String(++sequence).padStart(4, '0')}`,
  refundId: null,
  merchantReference: `ref-${sequence}`,
  occurredAt: new Date(Date.UTC(2025, 10, 1, 0, 0, sequence)),
  consumerMinor,
  consumerCurrency: currency,
  rate,
  rateOfferId: null,
  ...overrides,
});

describe('convertMinor: consumer amount / rate, rounded half-up to the remittance currency', () => {
  it.each([
    // consumer minor, currency, rate (consumer units per 1 remittance unit), remittance, expected minor, exact value
    [10000, 'EUR', '0.92234', 'USD', 10842, '108.419888…'],
    [10000, 'USD', '1.0842', 'EUR', 9223, '92.233905…'],
    [2450, 'JPY', '144', 'USD', 1701, '17.013888…'],
    [2450, 'USD', '0.0069444444', 'JPY', 3528, '3528.000022…'],
    [2450, 'USD', '3.2733224', 'KWD', 7485, '7.484750050…'],
    [1234567, 'KWD', '0.3055', 'USD', 404114, '4041.135842…'],
    [2450, 'USD', '1', 'USD', 2450, 'same currency'],
    [1, 'EUR', '2', 'USD', 1, '0.005: a tie goes up'],
    [3, 'EUR', '2', 'USD', 2, '0.015: a tie goes up'],
    [1, 'EUR', '3', 'USD', 0, '0.0033…: rounds down'],
    [-1, 'EUR', '2', 'USD', -1, '−0.005: a tie goes away from zero'],
  ])('%i %s at %s → %s %i (%s)', (minor, currency, rate, remittance, expected) => {
    expect(convertMinor(minor, currency, rate, remittance)).toBe(expected);
  });

  it('is exact for amounts near 2^53 minor units', () => {
    expect(convertMinor(9_007_199_254_740_991, 'USD', '1', 'USD')).toBe(9_007_199_254_740_991);
    expect(convertMinor(9_007_199_254_740_990, 'USD', '2', 'USD')).toBe(4_503_599_627_370_495);
    expect(convertMinor(9_007_199_254_740_991, 'USD', '2', 'USD')).toBe(4_503_599_627_370_496);
  });

  it.each(['0', '-1', 'abc', '', '1,5'])('refuses the rate %p', (rate) => {
    expect(() => convertMinor(100, 'USD', rate, 'EUR')).toThrow(/Invalid exchange rate/);
  });
});

describe('paymentFee: percent (half-up) plus the fixed part, never more than the payment', () => {
  it.each([
    [10842, { percent: '2.9', fixedMinor: 30 }, 344],
    [50, { percent: '1', fixedMinor: 0 }, 1],
    [49, { percent: '1', fixedMinor: 0 }, 0],
    [10000, { percent: '0', fixedMinor: 0 }, 0],
    [10, { percent: '0', fixedMinor: 30 }, 10],
    [10000, { percent: '100', fixedMinor: 0 }, 10000],
    [1701, { percent: '3.25', fixedMinor: 0 }, 55],
    [0, { percent: '2.9', fixedMinor: 30 }, 0],
  ])('%i with %j → %i', (gross, rule, fee) => expect(paymentFee(gross, rule)).toBe(fee));
});

describe('calculateRemittance', () => {
  const fee: FeeRule = { percent: '2.9', fixedMinor: 30 };

  it('converts each payment at its own rate, takes the fee, nets refunds, and adds up to the cent', () => {
    const eur = item(10000, 'EUR', '0.92234', { rateOfferId: 'offer-1' });
    const jpy = item(2450, 'JPY', '144');
    const usd = item(2450, 'USD', '1');
    const refund = item(2500, 'EUR', '0.92234', { orderId: eur.orderId, refundId: 'refund-1', merchantReference: eur.merchantReference });
    const sut = calculateRemittance('USD', [usd, eur, jpy], [refund], fee);

    expect(sut.lines.map((l) => [l.lineType, l.orderId, l.consumerMinor, l.grossMinor, l.feeMinor, l.remittedMinor])).toEqual([
      // 108.42 − (3.14 + 0.30); 17.01 − (0.49 + 0.30); 24.50 − (0.71 + 0.30); refund 25.00 EUR = 27.10497… → 27.10
      [RemittanceLineType.Payment, eur.orderId, 10000, 10842, 344, 10498],
      [RemittanceLineType.Payment, jpy.orderId, 2450, 1701, 79, 1622],
      [RemittanceLineType.Payment, usd.orderId, 2450, 2450, 101, 2349],
      [RemittanceLineType.Refund, eur.orderId, -2500, -2710, 0, -2710],
    ]);
    expect(sut.lines[0]).toMatchObject({ rate: '0.92234', rateOfferId: 'offer-1', refundId: null });
    expect(sut.lines[3]).toMatchObject({ refundId: 'refund-1', rate: '0.92234' });
    expect(sut.totals).toEqual({ grossMinor: 14993, refundsMinor: 2710, feesMinor: 524, remittedMinor: 11759, lineCount: 4 });
    expect(sut.lines.reduce((sum, l) => sum + l.remittedMinor, 0)).toBe(sut.totals.remittedMinor);
  });

  it('remits in a 0-decimal and a 3-decimal currency in their own minor units', () => {
    const toJpy = calculateRemittance('JPY', [item(2450, 'USD', '0.0069444444')], [], { percent: '2.9', fixedMinor: 30 });
    // 3528 JPY; fee 102.3 → 102 + 30 JPY
    expect(toJpy.totals).toEqual({ grossMinor: 3528, refundsMinor: 0, feesMinor: 132, remittedMinor: 3396, lineCount: 1 });
    const toKwd = calculateRemittance('KWD', [item(2450, 'USD', '3.2733224')], [], NO_FEE);
    expect(toKwd.totals.remittedMinor).toBe(7485); // 7.485 KWD
  });

  it('keeps the fee of a refunded payment (a full refund leaves the merchant −fee)', () => {
    const paid = item(2450, 'USD', '1');
    const refund = item(2450, 'USD', '1', { orderId: paid.orderId, refundId: 'refund-full' });
    const sut = calculateRemittance('USD', [paid], [refund], fee);
    expect(sut.totals).toEqual({ grossMinor: 2450, refundsMinor: 2450, feesMinor: 101, remittedMinor: -101, lineCount: 2 });
  });

  it('settles refunds alone (their payment was remitted before): a negative remittance', () => {
    const sut = calculateRemittance('USD', [], [item(1013, 'EUR', '0.853', { refundId: 'r-late' })], fee);
    // 10.13 / 0.853 = 11.8757… → 11.88
    expect(sut.lines).toHaveLength(1);
    expect(sut.totals).toEqual({ grossMinor: 0, refundsMinor: 1188, feesMinor: 0, remittedMinor: -1188, lineCount: 1 });
  });

  it('rounds every line on its own, and the totals are the sums of the rounded lines', () => {
    // Three payments of 0.005 USD each after conversion: each rounds to 0.01, so the total is 0.03, not 0.015 → 0.02.
    const sut = calculateRemittance('USD', [item(1, 'EUR', '2'), item(1, 'EUR', '2'), item(1, 'EUR', '2')], [], NO_FEE);
    expect(sut.lines.map((l) => l.remittedMinor)).toEqual([1, 1, 1]);
    expect(sut.totals.remittedMinor).toBe(3);
  });

  it('orders payments and then refunds by time', () => {
    const late = item(100, 'USD', '1', { occurredAt: new Date('2025-11-02T00:00:00Z') });
    const early = item(100, 'USD', '1', { occurredAt: new Date('2025-11-01T00:00:00Z') });
    const refund = item(50, 'USD', '1', { refundId: 'r-1', occurredAt: new Date('2025-10-01T00:00:00Z') });
    expect(calculateRemittance('USD', [late, early], [refund], NO_FEE).lines.map((l) => l.refundId ?? l.orderId)).toEqual([early.orderId, late.orderId, 'r-1']);
  });

  it('refuses a refund without its id', () => {
    expect(() => calculateRemittance('USD', [], [item(100, 'USD', '1')], NO_FEE)).toThrow(/no refund id/);
  });
});
