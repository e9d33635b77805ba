import { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { SqlDialect } from './sql-dialect';
import { ColumnConverter, columnConverter } from './column-converters';

/** Column sets kept per EntityRows (each is a few strings). */
const MAX_COLUMN_SETS = 64;

/**
 * Hand-written reads of some columns of one entity, turned into entity objects the way TypeORM
 * hydrates them (the driver's conversions and the columns' transformers, so dates, booleans, BIGINT
 * amounts and JSON text read the same on SQLite and MySQL) but without its query builder and result
 * transformer, which cost a dashboard page more CPU than the database did. For hot reads only: the
 * dashboard's batched look-ups and keyset pages, and session retrieve.
 */
export class EntityRows<E extends ObjectLiteral> {
  private readonly columns: ColumnMetadata[];
  private readonly converters: ColumnConverter[];
  /** Which read column is the primary key (-1: not read), for telling a LEFT JOIN's missing row. */
  private readonly primaryKey: number;
  private readonly table: string;
  /** The raw row's key of each column, per alias prefix (made once: concatenating per cell cost more than the read). */
  private readonly rowKeys = new Map<string, string[]>();
  private readonly selections = new Map<string, string>();
  private readonly subsets = new Map<string, EntityRows<E>>();
  private columnList?: string;

  constructor(
    private readonly dataSource: DataSource,
    private readonly entity: EntityTarget<E>,
    properties: readonly (keyof E & string)[],
  ) {
    const metadata = dataSource.getMetadata(entity);
    this.table = dataSource.driver.escape(metadata.tableName);
    this.columns = properties.map((property) => {
      const column = metadata.findColumnWithPropertyName(property);
      if (!column) throw new Error(`${metadata.name} has no column ${property}`);
      return column;
    });
    this.converters = this.columns.map((column) => columnConverter(dataSource.driver, column));
    this.primaryKey = this.columns.findIndex((column) => column.isPrimary);
  }

  /** Reads of every column the entity maps, hydrated as TypeORM would a full entity. */
  static ofAllColumns<E extends ObjectLiteral>(dataSource: DataSource, entity: EntityTarget<E>): EntityRows<E> {
    return new EntityRows(dataSource, entity, dataSource.getMetadata(entity).columns.map((column) => column.propertyName as keyof E & string));
  }

  /** The rows whose `column` is one of `keys` (one query; callers keep batches to a few hundred keys). */
  async whereIn(property: keyof E & string, keys: readonly string[], orderBy = ''): Promise<E[]> {
    if (keys.length === 0) return [];
    const escape = (name: string) => this.dataSource.driver.escape(name);
    const column = this.columns.find((candidate) => candidate.propertyName === property) ?? this.column(property);
    const select = (this.columnList ??= this.columns.map((c) => escape(c.databaseName)).join(', '));
    const placeholders = keys.map(() => '?').join(', ');
    const order = orderBy ? ` ORDER BY ${orderBy}` : '';
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT ${select} FROM ${this.table} WHERE ${escape(column.databaseName)} IN (${placeholders})${order}`,
      [...keys],
    );
    return rows.map((row) => this.hydrate(row));
  }

  /**
   * The entity read under a joined alias of a query's raw row (selected with `selection(alias)`), or
   * null when a LEFT JOIN found none (its primary key is null).
   */
  fromJoined(raw: Record<string, unknown>, alias: string): E | null {
    const prefix = `${alias}_`;
    if (this.primaryKey < 0) throw new Error('a joined read must select its primary key');
    return raw[this.keysFor(prefix)[this.primaryKey]] === null ? null : this.hydrate(raw, prefix);
  }

  /**
   * The select list for these columns under `alias`, as one expression that names each column as
   * TypeORM would (`<alias>_<column>`). One raw expression, not a property per column: TypeORM matches
   * every selected property against every column of every alias, which cost a page more than its rows.
   */
  selection(alias: string): string {
    let selection = this.selections.get(alias);
    if (!selection) {
      const escape = (name: string) => this.dataSource.driver.escape(name);
      selection = this.columns.map((c) => `${escape(alias)}.${escape(c.databaseName)} AS ${escape(`${alias}_${c.databaseName}`)}`).join(', ');
      this.selections.set(alias, selection);
    }
    return selection;
  }

  /**
   * The same reads of only these columns (a query that asks for fewer fields reads less). Made once per
   * set of columns; a dashboard asks for a handful of sets, and the cache is bounded all the same.
   */
  only(properties: ReadonlySet<keyof E & string>): EntityRows<E> {
    const key = [...properties].sort().join(',');
    let rows = this.subsets.get(key);
    if (!rows) {
      if (this.subsets.size >= MAX_COLUMN_SETS) this.subsets.delete(this.subsets.keys().next().value!);
      rows = new EntityRows(this.dataSource, this.entity, [...properties]);
      this.subsets.set(key, rows);
    }
    return rows;
  }

  /** The entity of a raw row whose columns are named `<prefix><column>`, as TypeORM would hydrate it. */
  hydrate(row: Record<string, unknown>, prefix = ''): E {
    const { columns, converters } = this;
    const keys = this.keysFor(prefix);
    const entity = {} as Record<string, unknown>;
    for (let i = 0; i < columns.length; i++) entity[columns[i].propertyName] = converters[i](row[keys[i]]);
    return entity as E;
  }

  /**
   * These columns of `alias` as [key, SQL expression] pairs of a JSON object (SqlDialect.jsonArrayOfObjects),
   * keyed by column name; timestamps as exact text, since JSON has no dates (fromJsonArray converts them).
   */
  private jsonPairs(alias: string, dialect: SqlDialect): [string, string][] {
    const escape = (name: string) => this.dataSource.driver.escape(name);
    return this.columns.map((c) => {
      const column = `${escape(alias)}.${escape(c.databaseName)}`;
      return [c.databaseName, isTimestamp(c) ? dialect.exactTimestamp(column) : column];
    });
  }

  /**
   * A subquery for the select list: these columns of the rows of this table matching `where` (under
   * `alias`), as one JSON array of jsonPairs() objects. One query for a page and its children.
   */
  jsonArray(alias: string, where: string, dialect: SqlDialect): string {
    return dialect.jsonArrayOfObjects(this.table, this.dataSource.driver.escape(alias), where, this.jsonPairs(alias, dialect));
  }

  /**
   * The entities of a jsonArray() (null: none; MySQL's driver may have parsed it already), converted as
   * the driver's rows are, sorted by the `orderBy` columns as the database would (exact timestamp text, ids).
   */
  fromJsonArray(json: unknown, dialect: SqlDialect, orderBy: readonly (keyof E & string)[] = []): E[] {
    if (json === null || json === undefined) return [];
    const objects = (typeof json === 'string' ? JSON.parse(json) : json) as Record<string, unknown>[];
    if (orderBy.length) {
      const keys = orderBy.map((property) => this.column(property).databaseName);
      objects.sort((a, b) => {
        for (const key of keys) {
          const x = String(a[key]);
          const y = String(b[key]);
          if (x !== y) return x < y ? -1 : 1;
        }
        return 0;
      });
    }
    const { columns, converters } = this;
    return objects.map((object) => {
      const entity = {} as Record<string, unknown>;
      for (let i = 0; i < columns.length; i++) {
        const value = object[columns[i].databaseName];
        entity[columns[i].propertyName] = converters[i](isTimestamp(columns[i]) ? dialect.timestampFromExactText(value as string | null) : value);
      }
      return entity as E;
    });
  }

  private keysFor(prefix: string): string[] {
    let keys = this.rowKeys.get(prefix);
    if (!keys) this.rowKeys.set(prefix, (keys = this.columns.map((column) => prefix + column.databaseName)));
    return keys;
  }

  private column(property: string): ColumnMetadata {
    const column = this.dataSource.getMetadata(this.entity).findColumnWithPropertyName(property);
    if (!column) throw new Error(`no column ${property}`);
    return column;
  }
}

function isTimestamp(column: ColumnMetadata): boolean {
  return column.isCreateDate || column.isUpdateDate || column.type === 'datetime' || column.type === 'timestamp' || column.type === Date;
}
