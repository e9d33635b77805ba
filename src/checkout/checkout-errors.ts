/** Error codes of the Checkout interface (PascalCase, as the real API), with their HTTP status. */
export enum CheckoutErrorCode {
  RequestMissing = 'RequestMissing',
  RequestMalformed = 'RequestMalformed',
  RequestInvalid = 'RequestInvalid',
  MerchantIdInvalid = 'MerchantIdInvalid',
  MerchantNotFound = 'MerchantNotFound',
  SignatureMissing = 'SignatureMissing',
  SignatureInvalid = 'SignatureInvalid',
  CountryInvalid = 'CountryInvalid',
  CurrencyNotFound = 'CurrencyNotFound',
  InternalError = 'InternalError',
}

const STATUS: Record<CheckoutErrorCode, number> = {
  [CheckoutErrorCode.RequestMissing]: 400,
  [CheckoutErrorCode.RequestMalformed]: 400,
  [CheckoutErrorCode.RequestInvalid]: 400,
  [CheckoutErrorCode.MerchantIdInvalid]: 400,
  [CheckoutErrorCode.MerchantNotFound]: 404,
  [CheckoutErrorCode.SignatureMissing]: 401,
  [CheckoutErrorCode.SignatureInvalid]: 401,
  [CheckoutErrorCode.CountryInvalid]: 400,
  [CheckoutErrorCode.CurrencyNotFound]: 400,
  [CheckoutErrorCode.InternalError]: 500,
};

/** Thrown by checkout services and the signed transport; rendered as {"Error":{"Code","Message"}}. */
export class CheckoutError extends Error {
  constructor(
    readonly code: CheckoutErrorCode,
    message: string,
  ) {
    super(message);
  }

  get status(): number {
    return STATUS[this.code];
  }
}
