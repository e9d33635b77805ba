import { Driver } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { ApplyValueTransformers } from 'typeorm/util/ApplyValueTransformers';

/** Column types that neither the MySQL nor the SQLite driver converts when hydrating (strings and integers as read). */
const UNCONVERTED_TYPES: ReadonlySet<unknown> = new Set(['varchar', 'char', 'text', 'bigint', 'int', 'integer']);

export type ColumnConverter = (value: unknown) => unknown;

/**
 * How a column's raw value becomes the entity's, exactly as `driver.prepareHydratedValue` does it, but
 * chosen once per column instead of by a chain of type tests for every cell: for the types the drivers
 * pass through, only the column's transformer (if any) runs. Every other type goes through the driver.
 */
export function columnConverter(driver: Driver, column: ColumnMetadata): ColumnConverter {
  if (!UNCONVERTED_TYPES.has(column.type)) return (value) => driver.prepareHydratedValue(value, column);
  const transformer = column.transformer;
  return transformer ? (value) => ApplyValueTransformers.transformFrom(transformer, value) : (value) => value;
}
