import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean, IsNotEmpty, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateBy, ValidateNested,
} from 'class-validator';

/** Largest amount accepted in major units; with 3-decimal currencies it stays an exact integer of minor units. */
export const MAX_AMOUNT = 1_000_000_000_000;

const optional = (required: boolean) => (required ? [] : [IsOptional()]);

/** A required or optional non-empty string of bounded length. */
export const Text = (maxLength: number, options: ApiPropertyOptions & { required?: boolean } = {}) =>
  applyDecorators(
    ApiProperty({ type: String, maxLength, ...options }),
    ...optional(options.required !== false),
    IsString(),
    IsNotEmpty(),
    MaxLength(maxLength),
  );

/** A money amount as a JSON number in major units; decimals are checked per currency later. */
export const Amount = (options: ApiPropertyOptions & { required?: boolean } = {}) =>
  applyDecorators(
    ApiProperty({ type: Number, minimum: 0, maximum: MAX_AMOUNT, example: 10.5, ...options }),
    ...optional(options.required !== false),
    IsNumber({ allowNaN: false, allowInfinity: false }),
    Min(0),
    Max(MAX_AMOUNT),
  );

export const Flag = (options: ApiPropertyOptions & { required?: boolean } = {}) =>
  applyDecorators(ApiProperty({ type: Boolean, ...options }), ...optional(options.required !== false), IsBoolean());

/** A nested object validated by its own class. */
export const Nested = (type: () => new () => object, options: ApiPropertyOptions & { required?: boolean } = {}) =>
  applyDecorators(
    ApiProperty({ type, ...options } as ApiPropertyOptions),
    ...optional(options.required !== false),
    ValidateNested(),
    Type(type),
  );

export const Pattern = (pattern: RegExp, message: string, options: ApiPropertyOptions & { required?: boolean } = {}) =>
  applyDecorators(
    ApiProperty({ type: String, pattern: pattern.source, ...options }),
    ...optional(options.required !== false),
    IsString(),
    Matches(pattern, { message }),
  );

const PLACEHOLDER = '{SessionId}';

/** Absolute http(s) URL that may contain the literal {SessionId} placeholder. */
export function isRedirectUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > 2000) return false;
  try {
    const url = new URL(value.split(PLACEHOLDER).join('00000000-0000-4000-8000-000000000000'));
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

export const RedirectUrl = (options: ApiPropertyOptions = {}) =>
  applyDecorators(
    ApiProperty({ type: String, format: 'uri', maxLength: 2000, ...options }),
    ValidateBy({
      name: 'isRedirectUrl',
      validator: {
        validate: isRedirectUrl,
        defaultMessage: () => 'must be an absolute http(s) URL (it may contain {SessionId})',
      },
    }),
  );
