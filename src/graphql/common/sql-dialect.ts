import { DataSource } from 'typeorm';

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

  /** A comparison of a timestamp column with a Date parameter, exact on both databases. */
  compareTimestamp(column: string, operator: '<' | '<=' | '>' | '>=', parameter: string): string {
    // SQLite: both the column's two text forms and TypeORM's Date parameters become "YYYY-MM-DD HH:MM:SS.SSS".
    return this.sqlite ? `strftime('%Y-%m-%d %H:%M:%f', ${column}) ${operator} :${parameter}` : `${column} ${operator} :${parameter}`;
  }

  /** SUM of an integer column as text, so that large totals stay exact. */
  sumAsText(expression: string): string {
    return `CAST(SUM(${expression}) AS ${this.sqlite ? 'TEXT' : 'CHAR'})`;
  }
}
