import { DataSource } from 'typeorm';
import { DateUtils } from 'typeorm/util/DateUtils';

/**
 * The few SQL expressions that differ between SQLite and MySQL/MariaDB in the dashboard's read queries.
 * created_at is DATETIME(6) on MySQL and text on SQLite ("2025-01-02 03:04:05" from the column default,
 * or with milliseconds when the application set it).
 */
export class SqlDialect {
  private constructor(private readonly sqlite: boolean) {}

  static of(dataSource: DataSource): SqlDialect {
    return new SqlDialect(dataSource.options.type === 'better-sqlite3');
  }

  /**
   * The stored timestamp as exact text, for cursors: JS Dates keep milliseconds only, MySQL keeps
   * microseconds, and a cursor that rounded them would repeat or skip rows.
   */
  exactTimestamp(column: string): string {
    return this.sqlite ? column : `DATE_FORMAT(${column}, '%Y-%m-%d %H:%i:%s.%f')`;
  }

  /**
   * A comparison of a timestamp column with a Date parameter (`placeholder`: `?` or a query builder's
   * `:name`), exact on both databases.
   */
  compareTimestamp(column: string, operator: '<' | '<=' | '>' | '>=', placeholder: string): string {
    // SQLite: both the column's two text forms and Date parameters (parameter()) become "YYYY-MM-DD HH:MM:SS.SSS".
    return this.sqlite ? `strftime('%Y-%m-%d %H:%M:%f', ${column}) ${operator} ${placeholder}` : `${column} ${operator} ${placeholder}`;
  }

  /** A parameter value as TypeORM would bind it: SQLite has no dates or booleans (text, 0/1); mysql2 takes both. */
  parameter(value: unknown): unknown {
    if (!this.sqlite) return value;
    if (value instanceof Date) return DateUtils.mixedDateToUtcDatetimeString(value);
    return typeof value === 'boolean' ? +value : value;
  }

  /**
   * A JSON array (text) of one object per row of `table` matching `where`, the object's keys and values
   * given as [key, SQL expression] pairs; null or '[]' when no row matches. Unordered: MySQL's
   * JSON_ARRAYAGG has no ORDER BY, so callers sort.
   */
  jsonArrayOfObjects(table: string, alias: string, where: string, pairs: readonly (readonly [string, string])[]): string {
    const object = pairs.map(([key, expression]) => `'${key}', ${expression}`).join(', ');
    const aggregate = this.sqlite ? `json_group_array(json_object(${object}))` : `JSON_ARRAYAGG(JSON_OBJECT(${object}))`;
    return `(SELECT ${aggregate} FROM ${table} ${alias} WHERE ${where})`;
  }

  /**
   * A timestamp as the driver hands it over from exactTimestamp() text (read inside JSON, which the
   * driver does not convert): SQLite's stored text as is; on MySQL the UTC Date mysql2 would have made
   * (timezone 'Z', milliseconds truncated).
   */
  timestampFromExactText(text: string | null): string | Date | null {
    if (text === null || this.sqlite) return text;
    return new Date(`${text.slice(0, 10)}T${text.slice(11, 23)}Z`);
  }

  /** SUM of an integer column as text, so that large totals stay exact. */
  sumAsText(expression: string): string {
    return `CAST(SUM(${expression}) AS ${this.sqlite ? 'TEXT' : 'CHAR'})`;
  }
}
