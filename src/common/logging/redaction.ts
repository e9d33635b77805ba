/**
 * What never reaches a log line, whatever code logs it: values under keys that name credentials or
 * card data, and card numbers inside strings (messages, error messages, stacks). The request log line
 * itself only picks safe fields (logger.ts); this is the safety net for everything else.
 */

export const REDACTED = '[REDACTED]';

/**
 * Keys whose values are replaced, at any depth: credentials (Authorization, Cookie, anything named like
 * password, secret, token, signature, API key), the signed transport's `request` and `card` fields, and
 * the card's own fields (Number, VerificationCode/CVV/CVC, Expiry).
 */
const SENSITIVE_KEY =
  /^(authorization|proxy-authorization|cookie|set-cookie|request|card|number|pan|expiry|cvv|cvc|cvv2)$|passw|secret|token|signature|verificationcode|api[-_]?key|credential/i;

/** Keys that pino serializers render (req, res, err): left for their serializers, never walked raw. */
const SERIALIZED_KEYS = new Set(['req', 'res', 'err', 'error']);

const MAX_DEPTH = 6;

export function isSensitiveKey(key: string): boolean {
  return SENSITIVE_KEY.test(key);
}

/** pino `formatters.log`: the object of one log call, with sensitive values replaced (never mutated). */
export function redactLogObject(object: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | null = null;
  for (const key of Object.keys(object)) {
    if (SERIALIZED_KEYS.has(key)) continue;
    const value = object[key];
    const clean = isSensitiveKey(key) ? REDACTED : redactValue(value, 1);
    if (clean !== value) {
      copy ??= { ...object };
      copy[key] = clean;
    }
  }
  return copy ?? object;
}

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return maskCardNumbers(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH) return '[Object]';
  if (value instanceof Date || Buffer.isBuffer(value)) return value;
  if (value instanceof Error) return { type: value.name, message: maskCardNumbers(value.message) };
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item) => {
      const clean = redactValue(item, depth + 1);
      changed ||= clean !== item;
      return clean;
    });
    return changed ? items : value;
  }
  let copy: Record<string, unknown> | null = null;
  const source = value as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    const item = source[key];
    const clean = isSensitiveKey(key) ? REDACTED : redactValue(item, depth + 1);
    if (clean !== item) {
      copy ??= { ...source };
      copy[key] = clean;
    }
  }
  return copy ?? value;
}

/**
 * A card number as written: 13 to 19 digits in a row, or groups of 4 (Amex 4-6-5) separated by single
 * spaces or dashes. Not inside a longer token (a UUID's all-digit groups are not a card number).
 */
const DIGIT_RUN = /(?<![\w-])(?:\d{13,19}|\d{4}(?:[ -]\d{4}){2}[ -]\d{1,7}|\d{4}[ -]\d{6}[ -]\d{5})(?![\w-])/g;

/** Replaces every card number (a 13-19 digit run passing the Luhn check) in a string. */
export function maskCardNumbers(text: string): string {
  if (!/\d{4}/.test(text)) return text;
  return text.replace(DIGIT_RUN, (run) => {
    const digits = run.replace(/[ -]/g, '');
    return digits.length >= 13 && digits.length <= 19 && luhn(digits) ? '[REDACTED-PAN]' : run;
  });
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}
