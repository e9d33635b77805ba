/** A field-level validation problem, as the spec's FieldError (section 2.10). */
export interface FieldError {
  Field: string;
  Code: FieldErrorCode;
  Message: string;
}

export enum FieldErrorCode {
  Missing = 'FIELD_MISSING',
  Invalid = 'FIELD_INVALID',
  Unknown = 'FIELD_UNKNOWN',
  Conflict = 'FIELD_CONFLICT',
}
