import { ValueTransformer } from 'typeorm';

/**
 * BIGINT money columns hold integer minor units; the drivers hand them back as strings (mysql2)
 * or numbers (SQLite). Amounts are capped at Number.MAX_SAFE_INTEGER, so a JS number is exact.
 */
export const bigintToNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null || value === undefined ? null : Number(value)),
};

/** JSON stored as text on both databases (MariaDB's JSON is LONGTEXT anyway). */
export const jsonText: ValueTransformer = {
  to: (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value)),
  from: (value: string | null) => (value === null ? null : JSON.parse(value)),
};
