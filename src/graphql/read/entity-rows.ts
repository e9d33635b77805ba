import { DataSource, EntityTarget, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

/**
 * Hand-written reads of some columns of one entity, turned into entity objects the way TypeORM
 * hydrates them (the driver's conversions and the columns' transformers, so dates, booleans, BIGINT
 * amounts and JSON text read the same on SQLite and MySQL) but without its query builder and result
 * transformer, which cost a dashboard page more CPU than the database did. For the dashboard's hot
 * reads only: batched look-ups by key and the keyset pages.
 */
export class EntityRows<E extends ObjectLiteral> {
  private readonly columns: ColumnMetadata[];
  private readonly table: string;
  /** The raw row's key of each column, per alias prefix (made once: concatenating per cell cost more than the read). */
  private readonly rowKeys = new Map<string, string[]>();
  private readonly selections = new Map<string, string>();
  private columnList?: string;

  constructor(
    private readonly dataSource: DataSource,
    entity: EntityTarget<E>,
    properties: readonly (keyof E & string)[],
  ) {
    const metadata = dataSource.getMetadata(entity);
    this.table = dataSource.driver.escape(metadata.tableName);
    this.columns = properties.map((property) => {
      const column = metadata.findColumnWithPropertyName(property);
      if (!column) throw new Error(`${metadata.name} has no column ${property}`);
      return column;
    });
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
   * Runs a query builder's SQL and hydrates the selected columns of its main alias (TypeORM names them
   * `<alias>_<column>`), returning the raw rows too for computed columns such as a cursor.
   */
  async fromQuery<R extends Record<string, unknown>>(query: SelectQueryBuilder<E>): Promise<{ entities: E[]; raw: R[] }> {
    const [sql, parameters] = query.getQueryAndParameters();
    const raw: R[] = await this.dataSource.query(sql, parameters);
    const prefix = `${query.alias}_`;
    return { entities: raw.map((row) => this.hydrate(row, prefix)), raw };
  }

  /**
   * The entity read under a joined alias of a query's raw row (selected with `selection(alias)`), or
   * null when a LEFT JOIN found none (the first column, the key, is null).
   */
  fromJoined(raw: Record<string, unknown>, alias: string): E | null {
    const prefix = `${alias}_`;
    return raw[this.keysFor(prefix)[0]] === null ? null : this.hydrate(raw, prefix);
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

  private hydrate(row: Record<string, unknown>, prefix = ''): E {
    const driver = this.dataSource.driver;
    const columns = this.columns;
    const keys = this.keysFor(prefix);
    const entity = {} as Record<string, unknown>;
    for (let i = 0; i < columns.length; i++) entity[columns[i].propertyName] = driver.prepareHydratedValue(row[keys[i]], columns[i]);
    return entity as E;
  }

  private keysFor(prefix: string): string[] {
    let keys = this.rowKeys.get(prefix);
    if (!keys) this.rowKeys.set(prefix, (keys = this.columns.map((column) => prefix + column.databaseName)));
    return keys;
  }

  private column(property: string): ColumnMetadata {
    const column = this.columns[0].entityMetadata.findColumnWithPropertyName(property);
    if (!column) throw new Error(`no column ${property}`);
    return column;
  }
}
