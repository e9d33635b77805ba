/** Every error code the Session-style (Basic auth, JSON) interfaces return, with its HTTP status and message. */
export enum ErrorCode {
  InvalidRequest = 'INVALID_REQUEST',
  InvalidCurrency = 'INVALID_CURRENCY',
  ValidationError = 'VALIDATION_ERROR',
  AuthenticationRequired = 'AUTHENTICATION_REQUIRED',
  InvalidCredentials = 'INVALID_CREDENTIALS',
  NotAuthorized = 'NOT_AUTHORIZED',
  HttpsRequired = 'HTTPS_REQUIRED',
  NotFound = 'NOT_FOUND',
  SessionNotFound = 'SESSION_NOT_FOUND',
  BillingProfileNotFound = 'BILLING_PROFILE_NOT_FOUND',
  TaxQuoteNotFound = 'TAX_QUOTE_NOT_FOUND',
  NotificationNotFound = 'NOTIFICATION_NOT_FOUND',
  NotifyUrlMissing = 'NOTIFY_URL_MISSING',
  DuplicateMerchantReferenceId = 'DUPLICATE_MERCHANT_REFERENCE_ID',
  DuplicateBillingProfileReference = 'DUPLICATE_BILLING_PROFILE_REFERENCE',
  DuplicateRequest = 'DUPLICATE_REQUEST',
  InvalidSessionState = 'INVALID_SESSION_STATE',
  IdempotencyKeyMismatch = 'IDEMPOTENCY_KEY_MISMATCH',
  PayloadTooLarge = 'PAYLOAD_TOO_LARGE',
  UnsupportedMediaType = 'UNSUPPORTED_MEDIA_TYPE',
  MethodNotAllowed = 'METHOD_NOT_ALLOWED',
  TooManyRequests = 'TOO_MANY_REQUESTS',
  InternalServerError = 'INTERNAL_SERVER_ERROR',
}

interface ErrorDefinition {
  status: number;
  /** The spec's message (section 7), used when the error carries none of its own. */
  message: string;
  /** The code as it goes on the wire (two internal codes share AUTHENTICATION_REQUIRED). */
  wireCode?: string;
}

export const ERROR_DEFINITIONS: Record<ErrorCode, ErrorDefinition> = {
  [ErrorCode.InvalidRequest]: { status: 400, message: 'Invalid request syntax' },
  [ErrorCode.InvalidCurrency]: { status: 400, message: 'Provided currency is not supported' },
  [ErrorCode.ValidationError]: { status: 400, message: 'Not a valid UUID' },
  [ErrorCode.AuthenticationRequired]: {
    status: 401,
    message: 'Username/password must be supplied to access this resource',
  },
  [ErrorCode.InvalidCredentials]: {
    status: 401,
    message: 'Supplied username/password are invalid',
    wireCode: 'AUTHENTICATION_REQUIRED',
  },
  [ErrorCode.NotAuthorized]: { status: 403, message: 'User is not permitted to access this resource' },
  [ErrorCode.HttpsRequired]: { status: 403, message: 'HTTPS is required: plain HTTP is refused in production' },
  [ErrorCode.NotFound]: { status: 404, message: 'No resource exists at this path' },
  [ErrorCode.SessionNotFound]: { status: 404, message: 'No session exists for the given session ID' },
  [ErrorCode.TaxQuoteNotFound]: { status: 404, message: 'No tax quote exists for the given ID' },
  [ErrorCode.NotificationNotFound]: { status: 404, message: 'No notification exists for the given EventId' },
  [ErrorCode.NotifyUrlMissing]: { status: 409, message: 'The merchant has no notify URL (cli merchant update --notify-url URL)' },
  [ErrorCode.BillingProfileNotFound]: { status: 400, message: 'No billing profile exists for the given reference' },
  [ErrorCode.DuplicateMerchantReferenceId]: { status: 409, message: 'Session with merchant reference already exists' },
  [ErrorCode.DuplicateBillingProfileReference]: {
    status: 409,
    message: 'Billing profile with this BillingProfileReference already exists',
  },
  [ErrorCode.DuplicateRequest]: { status: 409, message: 'A request with this ID is currently in progress' },
  [ErrorCode.InvalidSessionState]: { status: 409, message: 'Session is not in a state that allows this operation' },
  [ErrorCode.IdempotencyKeyMismatch]: {
    status: 422,
    message: 'Idempotency-Key was already used with a different request',
  },
  [ErrorCode.PayloadTooLarge]: { status: 413, message: 'Request body is too large' },
  [ErrorCode.UnsupportedMediaType]: { status: 415, message: 'Expected content-type: application/json' },
  [ErrorCode.MethodNotAllowed]: { status: 405, message: 'Method not allowed on this resource' },
  [ErrorCode.TooManyRequests]: { status: 429, message: 'Too many requests: retry after the number of seconds in Retry-After' },
  [ErrorCode.InternalServerError]: {
    status: 500,
    message: 'The server could not process the request due to an unexpected error',
  },
};
