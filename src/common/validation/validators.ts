import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsBoolean, IsNotEmpty, IsNumber, IsObject, IsOptional, IsString, Matches, Max, Min, ValidateBy, ValidateNested,
} from 'class-validator';

/** Largest amount accepted in major units; with 3-decimal currencies it stays an exact integer of minor units. */
export const MAX_AMOUNT = 1_000_000_000_000;

/**
 * An optional field sent as JSON null is treated as absent: IsOptional skips the validators for null,
 * so without this the rules after validation would see a null they do not expect.
 */
export const NullAsAbsent = () => Transform(({ value }) => (value === null ? undefined : value));

const optional = (required: boolean) => (required ? [] : [IsOptional(), NullAsAbsent()]);

/** A required or optional non-empty string of bounded length. */
export const Text = (maxLength: number, options: ApiPropertyOptions & { required?: boolean } = {}) =>
  applyDecorators(
    ApiProperty({ type: String, maxLength, ...options }),
    ...optional(options.required !== false),
    IsString(),
    IsNotEmpty(),
    MaxCharacters(maxLength),
  );

/**
 * At most `max` characters as the database counts them (Unicode code points, MariaDB's VARCHAR(n)).
 * class-validator's MaxLength counts "a" + U+FE0F as one, so 255 of those passed it and then failed the
 * INSERT on MariaDB ("Data too long", a 500).
 */
export const MaxCharacters = (max: number) =>
  ValidateBy({
    name: 'maxCharacters',
    constraints: [max],
    validator: {
      validate: (value: unknown) => typeof value === 'string' && [...value].length <= max,
      defaultMessage: () => `must be shorter than or equal to ${max} characters`,
    },
  });

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

/**
 * A nested object validated by its own class. IsObject makes a required one really required
 * (ValidateNested alone lets undefined through) and refuses arrays and primitives.
 */
export const Nested = (type: () => new () => object, options: ApiPropertyOptions & { required?: boolean } = {}) =>
  applyDecorators(
    ApiProperty({ type, ...options } as ApiPropertyOptions),
    ...optional(options.required !== false),
    IsObject({ message: 'must be an object' }),
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
