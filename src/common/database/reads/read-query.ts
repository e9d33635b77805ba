import { DataSource, EntityTarget } from 'typeorm';
import { SqlDialect } from './sql-dialect';

/**
 * A hot read as SQL text with positional parameters, built without TypeORM's query builder, whose
 * parsing of every expression cost a 50-row dashboard page more CPU than the database took to answer it.
 * Conditions are this module's callers' own SQL with `?` placeholders; values are always parameters.
 */
export class ReadQuery {
  readonly dialect: SqlDialect;
  private readonly from: string;
  private readonly selects: string[] = [];
  private readonly joins: string[] = [];
  private readonly conditions: string[] = [];
  private readonly joinValues: unknown[] = [];
  private readonly values: unknown[] = [];
  private ordering = '';
  private limitTo?: number;

  constructor(
    private readonly dataSource: DataSource,
    entity: EntityTarget<unknown>,
    readonly alias: string,
  ) {
    this.dialect = SqlDialect.of(dataSource);
    this.from = `${this.escape(dataSource.getMetadata(entity).tableName)} ${this.escape(alias)}`;
  }

  private escape(name: string): string {
    return this.dataSource.driver.escape(name);
  }

  select(...expressions: string[]): this {
    this.selects.push(...expressions);
    return this;
  }

  innerJoin(entity: EntityTarget<unknown>, alias: string, on: string): this {
    return this.join('INNER', entity, alias, on);
  }

  /** A LEFT JOIN; each `?` in `on` takes the next value, in order (bound before the WHERE's). */
  leftJoin(entity: EntityTarget<unknown>, alias: string, on: string, ...values: unknown[]): this {
    return this.join('LEFT', entity, alias, on, values);
  }

  private join(kind: 'INNER' | 'LEFT', entity: EntityTarget<unknown>, alias: string, on: string, values: unknown[] = []): this {
    this.checkPlaceholders(on, values);
    this.joins.push(`${kind} JOIN ${this.escape(this.dataSource.getMetadata(entity).tableName)} ${this.escape(alias)} ON ${on}`);
    for (const value of values) this.joinValues.push(this.dialect.parameter(value));
    return this;
  }

  private checkPlaceholders(sql: string, values: unknown[]): void {
    const placeholders = sql.split('?').length - 1;
    if (placeholders !== values.length) throw new Error(`${placeholders} placeholders for ${values.length} values in: ${sql}`);
  }

  /** ANDs a condition; each `?` in it takes the next value, in order. */
  where(condition: string, ...values: unknown[]): this {
    this.checkPlaceholders(condition, values);
    this.conditions.push(condition);
    for (const value of values) this.values.push(this.dialect.parameter(value));
    return this;
  }

  orderBy(ordering: string): this {
    this.ordering = ordering;
    return this;
  }

  limit(rows: number): this {
    this.limitTo = rows;
    return this;
  }

  /** Runs the query: the raw rows, named as selected. */
  rows<R extends Record<string, unknown>>(): Promise<R[]> {
    return this.dataSource.query(this.sql(), [...this.joinValues, ...this.values]);
  }

  private sql(): string {
    if (this.selects.length === 0) throw new Error('a query selects something');
    return [
      `SELECT ${this.selects.join(', ')} FROM ${this.from}`,
      ...this.joins,
      this.conditions.length ? `WHERE ${this.conditions.map((condition) => `(${condition})`).join(' AND ')}` : '',
      this.ordering ? `ORDER BY ${this.ordering}` : '',
      this.limitTo === undefined ? '' : `LIMIT ${Math.trunc(this.limitTo)}`,
    ]
      .filter(Boolean)
      .join(' ');
  }
}
