import { RemittanceLineType } from './remittance-calculator';
import { csvField, reportCsv } from './report-csv';
import { ReportLineView } from './report.views';

const line = (overrides: Partial<ReportLineView> = {}): ReportLineView => ({
  LineType: RemittanceLineType.Payment,
  OrderId: 'o-1',
  MerchantReference: 'order-1001',
  Date: '2025-11-01T10:00:00.000Z',
  ConsumerAmount: '100.00',
  ConsumerCurrency: 'EUR',
  Rate: '0.92234',
  RateOfferId: 'offer-1',
  GrossAmount: '108.42',
  Fee: '3.44',
  RemittedAmount: '104.98',
  RemittanceCurrency: 'USD',
  ...overrides,
});

describe('reportCsv', () => {
  it('writes a header row and one row per line, CRLF, empty fields for what a line does not have', () => {
    const csv = reportCsv([line(), line({ LineType: RemittanceLineType.Refund, RefundId: 'r-1', RateOfferId: undefined, ConsumerAmount: '-25.00', GrossAmount: '-27.11', Fee: '0.00', RemittedAmount: '-27.11' })]);
    expect(csv.split('\r\n')).toEqual([
      'LineType,OrderId,MerchantReference,RefundId,Date,ConsumerAmount,ConsumerCurrency,Rate,RateOfferId,GrossAmount,Fee,RemittedAmount,RemittanceCurrency',
      'Payment,o-1,order-1001,,2025-11-01T10:00:00.000Z,100.00,EUR,0.92234,offer-1,108.42,3.44,104.98,USD',
      'Refund,o-1,order-1001,r-1,2025-11-01T10:00:00.000Z,-25.00,EUR,0.92234,,-27.11,0.00,-27.11,USD',
      '',
    ]);
  });

  it('quotes commas, quotes and line breaks, and defuses formula-looking references', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    const [, row] = reportCsv([line({ MerchantReference: '=HYPERLINK("x")' })]).split('\r\n');
    expect(row).toContain(`"'=HYPERLINK(""x"")"`);
    // Amounts keep their sign: only free text is defused.
    expect(reportCsv([line({ RemittedAmount: '-1.00' })])).toContain(',-1.00,USD');
  });

  it('is only a header for no lines', () => {
    expect(reportCsv([]).split('\r\n')).toHaveLength(2);
  });
});
