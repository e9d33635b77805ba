import { ValidationError } from 'class-validator';
import { FieldError, FieldErrorCode } from '../errors/field-error';

/** Flattens class-validator's tree into FieldErrors with paths like "Items[1].Amount", one per field. */
export function toFieldErrors(errors: ValidationError[], parentPath = ''): FieldError[] {
  return errors.flatMap((error) => {
    const path = joinPath(parentPath, error.property);
    const own = error.constraints ? [fieldError(path, error)] : [];
    return [...own, ...toFieldErrors(error.children ?? [], path)];
  });
}

function joinPath(parent: string, property: string): string {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
}

function fieldError(path: string, error: ValidationError): FieldError {
  const constraints = error.constraints ?? {};
  if ('whitelistValidation' in constraints) {
    return { Field: path, Code: FieldErrorCode.Unknown, Message: `${path} is not a known field` };
  }
  if (error.value === undefined || error.value === null) {
    return { Field: path, Code: FieldErrorCode.Missing, Message: `${path} is required` };
  }
  const reasons = Object.values(constraints).map((message) => message.replace(new RegExp(`^${error.property} `), ''));
  return { Field: path, Code: FieldErrorCode.Invalid, Message: `${path} ${reasons.join('; ')}` };
}
