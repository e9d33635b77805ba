import { REPORT_COLUMNS, ReportLineView } from './report.views';

/**
 * A report as CSV (RFC 4180): a header row, one row per line, CRLF line ends, UTF-8 without a BOM.
 * Amounts are plain decimals in each currency's decimals, negative for refunds; an absent value
 * (RefundId of a payment) is an empty field. No totals row: every row is a line, so a spreadsheet's
 * SUM(RemittedAmount) is the remitted amount.
 */
export function reportCsv(lines: ReportLineView[]): string {
  const rows = [REPORT_COLUMNS.map((column) => csvField(column)), ...lines.map((line) => REPORT_COLUMNS.map((column) => csvField(textOf(line, column))))];
  return rows.map((row) => `${row.join(',')}\r\n`).join('');
}

/** Text the merchant typed (MerchantReference) could start a spreadsheet formula: those get a leading apostrophe (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;
const FREE_TEXT: ReadonlySet<keyof ReportLineView> = new Set(['MerchantReference']);

function textOf(line: ReportLineView, column: keyof ReportLineView): string {
  const value = line[column];
  const text = value === undefined ? '' : String(value);
  return FREE_TEXT.has(column) && FORMULA_START.test(text) ? `'${text}` : text;
}

/** Quoted when it holds a comma, a quote or a line break; quotes doubled. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
