import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

/** An error answered by the service, or a response whose signature did not verify. */
export class CheckoutClientError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`${status} ${code}: ${message}`);
  }
}

export interface CheckoutParams {
  ReferenceId: string;
  PaymentMethod: string;
  ConsumerTotal: string;
  ConsumerCurrency: string;
  Items: { Sku: string; Description?: string; ConsumerPrice: string; Quantity: string | number }[];
  Consumer: { Name: string; Email: string; Country: string; Address?: string; City?: string; Region?: string; PostalCode?: string; Phone?: string; Company?: string };
  Charges?: { Name: string; ConsumerPrice: string }[];
  Discounts?: { Name: string; ConsumerPrice: string }[];
  Shipping?: { ConsumerPrice: string; ConsumerTaxes?: string; ConsumerDuty?: string };
  RateOfferId?: string;
  Capture?: boolean;
  ViaAgent?: boolean;
  AcceptLiability?: boolean;
  OpenContract?: boolean;
  DeviceFingerprint?: string;
  ContractId?: string;
  ConsumerIpAddress?: string;
  Return?: string;
  Notify?: string;
}

/** The unsigned `card` field: kept by the service only as scheme, last four and a token. */
export interface CardParams {
  Name: string;
  Number: string;
  VerificationCode: string;
  Expiry: { Month: number; Year: number };
}

export type CheckoutAction = { Redirect: string } | { Challenge: string } | { Display: { BankDetails: Record<string, string> } };

export interface CheckoutAnswer {
  OrderId: string;
  Authorized: boolean;
  Completed: boolean;
  UnderReview: boolean;
  ContractId?: string;
  Action?: CheckoutAction;
  /** Capture deadline of an authorized, uncaptured order. */
  Expiry?: string;
}

export interface RefundView {
  RefundId: string;
  ReferenceId: string;
  Amount: string;
  Currency: string;
  State: 'InProgress' | 'Succeeded' | 'Failed';
  Reason?: string;
  Times: { Created: string; Completed?: string };
}

export interface OrderView {
  OrderId: string;
  ReferenceId: string;
  OrderState: string;
  UnderReview: boolean;
  PaymentMethod: string;
  ConsumerCurrency: string;
  ConsumerTotal: string;
  RefundedAmount: string;
  Captured: boolean;
  Expiry?: string;
  RateOfferId?: string;
  Rate?: string;
  ContractId?: string;
  Card?: { Brand: string; Last4: string };
  BankDetails?: Record<string, string>;
  Action?: CheckoutAction;
  Times: Record<string, string>;
  Refunds: RefundView[];
}

export interface ReportSummary {
  ReportId: string;
  RemittanceId: string;
  Currency: string;
  From: string;
  To: string;
  CreatedAt: string;
  RemittedAmount: string;
}

export interface ReportLine {
  LineType: 'Payment' | 'Refund';
  OrderId: string;
  MerchantReference: string;
  RefundId?: string;
  Date: string;
  ConsumerAmount: string;
  ConsumerCurrency: string;
  Rate: string;
  RateOfferId?: string;
  GrossAmount: string;
  Fee: string;
  RemittedAmount: string;
  RemittanceCurrency: string;
}

export interface ReportDocument extends ReportSummary {
  Totals: { Payments: number; Refunds: number; GrossAmount: string; RefundedAmount: string; Fees: string; RemittedAmount: string };
  Lines: ReportLine[];
}

export interface CheckoutClientOptions {
  /** e.g. http://localhost:3000/v2.22 */
  baseUrl: string;
  merchantId: string;
  signingSecret: string;
  /** How POST calls are encoded: form fields (as the real API) or a JSON envelope. Default form. */
  encoding?: 'form' | 'json';
  /**
   * Adds Timestamp (now) and a random Nonce to every request, so that the service accepts each signed
   * request once and only for a few minutes. Default true; false sends exactly what the real API takes.
   */
  replayProtection?: boolean;
  fetch?: typeof fetch;
}

const sign = (secret: string, text: string) => createHmac('sha256', secret).update(text, 'utf8').digest('base64');

/**
 * A small typed client for the signed Checkout interface: signs each request's JSON text, verifies the
 * signature of every answer (errors included) before trusting it, and returns the parsed response.
 */
export class CheckoutClient {
  private readonly fetch: typeof fetch;

  constructor(private readonly options: CheckoutClientOptions) {
    this.fetch = options.fetch ?? fetch;
  }

  badge(params: { Theme?: 'light' | 'dark'; ConsumerIpAddress?: string } = {}) {
    return this.get<{ Text: string; Html: string; ImageUrl: string; FlagImageUrl: string; TermsOfServiceUrl: string; MerchantOfRecord: string; MerchantOfRecordUrl: string; MerchantName: string }>('badge', params);
  }

  getRates() {
    return this.get<{ RateOffers?: { Id: string; Currency: string; Rate: number; Expiry: string }[]; Rates?: { Currency: string; Rate: number }[]; Indicative?: boolean }>('getRates');
  }

  /** The payment methods offered for a shopper's Country and Currency (cards only when ViaAgent). */
  paymentMethods(params: { Country: string; Currency: string; ViaAgent?: boolean }) {
    return this.get<{ PaymentMethods: { Name: string; Class: 'Card' | 'Online' | 'Offline'; Label: string; DelayedCapture: boolean }[] }>('getPaymentMethods', params);
  }

  /** Creates an order; a card payment passes the card beside the signed text (it is not signed). */
  checkout(params: CheckoutParams, card?: CardParams) {
    return this.post<CheckoutAnswer>('checkout', params as unknown as Record<string, unknown>, card);
  }

  capture(OrderId: string) {
    return this.post<{ OrderId: string; OrderState: string }>('capture', { OrderId });
  }

  cancel(OrderId: string) {
    return this.post<{ OrderId: string; OrderState: string }>('cancel', { OrderId });
  }

  /** Amount in the order currency; ReferenceId makes a retry return the same RefundId. */
  refund(params: { OrderId: string; ReferenceId: string; Amount: string }) {
    return this.post<{ RefundId: string }>('refund', params);
  }

  query(lookup: { OrderId: string } | { ReferenceId: string }) {
    return this.post<OrderView>('query', lookup);
  }

  /** The merchant's settlement reports, newest first. */
  reports() {
    return this.get<{ Reports: ReportSummary[] }>('reports');
  }

  /** One report: JSON (a signed envelope) or CSV (the text, its Signature header verified). */
  report(ReportId: string, Format?: 'json'): Promise<ReportDocument>;
  report(ReportId: string, Format: 'csv'): Promise<string>;
  async report(ReportId: string, Format: 'json' | 'csv' = 'json'): Promise<ReportDocument | string> {
    if (Format === 'json') return this.get<ReportDocument>(`reports/${encodeURIComponent(ReportId)}`, { Format });
    const text = this.requestText({ Format });
    const query = new URLSearchParams({ request: text, signature: sign(this.options.signingSecret, text) });
    const response = await this.fetch(`${this.options.baseUrl}/reports/${encodeURIComponent(ReportId)}?${query}`);
    if (!(response.headers.get('content-type') ?? '').startsWith('text/csv')) {
      // An error comes as a signed envelope: read() verifies it and throws it.
      await this.read<unknown>(response);
      throw new CheckoutClientError(response.status, 'UnexpectedResponse', 'Expected a text/csv answer');
    }
    const csv = await response.text();
    const expected = Buffer.from(sign(this.options.signingSecret, csv), 'base64');
    const given = Buffer.from(response.headers.get('signature') ?? '', 'base64');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new CheckoutClientError(response.status, 'ResponseSignatureInvalid', 'The Signature header does not verify the CSV');
    }
    return csv;
  }

  /** A signed GET: request and signature as query parameters. */
  async get<T>(operation: string, params: Record<string, unknown> = {}): Promise<T> {
    const text = this.requestText(params);
    const query = new URLSearchParams({ request: text, signature: sign(this.options.signingSecret, text) });
    return this.read<T>(await this.fetch(`${this.options.baseUrl}/${operation}?${query}`));
  }

  /** A signed POST, form-encoded or as a JSON envelope; `card` travels beside the signed text. */
  async post<T>(operation: string, params: Record<string, unknown>, card?: object): Promise<T> {
    const text = this.requestText(params);
    const fields: Record<string, string> = { request: text, signature: sign(this.options.signingSecret, text) };
    if (card) fields.card = JSON.stringify(card);
    const json = this.options.encoding === 'json';
    const response = await this.fetch(`${this.options.baseUrl}/${operation}`, {
      method: 'POST',
      headers: { 'Content-Type': json ? 'application/json' : 'application/x-www-form-urlencoded' },
      body: json ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
    });
    return this.read<T>(response);
  }

  private requestText(params: Record<string, unknown>): string {
    // The Nonce keeps two identical calls in the same millisecond from being taken for a replay.
    const replay = this.options.replayProtection === false ? {} : { Timestamp: new Date().toISOString(), Nonce: randomUUID() };
    return JSON.stringify({ MerchantId: this.options.merchantId, ...params, ...replay });
  }

  private async read<T>(response: Response): Promise<T> {
    const raw = await response.text();
    const envelope = parseEnvelope(raw, response.headers.get('content-type') ?? '');
    if (!envelope) {
      // Unsigned: the service could not tell which merchant called (no secret to sign with).
      const body = safeJson(raw) as { Error?: { Code: string; Message: string } } | null;
      throw new CheckoutClientError(response.status, body?.Error?.Code ?? 'UnsignedResponse', body?.Error?.Message ?? raw.slice(0, 200));
    }
    const expected = Buffer.from(sign(this.options.signingSecret, envelope.response), 'base64');
    const given = Buffer.from(envelope.signature, 'base64');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new CheckoutClientError(response.status, 'ResponseSignatureInvalid', 'The response signature does not verify');
    }
    const body = JSON.parse(envelope.response) as T & { Error?: { Code: string; Message: string } };
    if (!response.ok || body.Error) {
      throw new CheckoutClientError(response.status, body.Error?.Code ?? 'Error', body.Error?.Message ?? '');
    }
    return body;
  }
}

function parseEnvelope(raw: string, contentType: string): { response: string; signature: string } | null {
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(raw);
    const response = form.get('response');
    const signature = form.get('signature');
    return response !== null && signature !== null ? { response, signature } : null;
  }
  const body = safeJson(raw) as { response?: unknown; signature?: unknown } | null;
  return typeof body?.response === 'string' && typeof body.signature === 'string' ? { response: body.response, signature: body.signature } : null;
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}
