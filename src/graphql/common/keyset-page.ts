import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { EntityRows } from '../read/entity-rows';
import { Connection } from './connection.model';
import { decodeCursor, encodeCursor } from './cursor';
import { PageArgs, SortOrder } from './page.args';
import { SqlDialect } from './sql-dialect';

/**
 * One page of `query` in (created_at, id) order after the cursor, read as first + 1 rows so that
 * hasNextPage needs no COUNT. Keyset, not OFFSET: rows inserted while a client pages never shift the
 * rows it has not seen yet, so no row is repeated or skipped. `query` filters (and may join); `rows` names
 * the columns read, `joined` the columns of joined tables, which `toNode` finds in the raw row.
 */
export async function keysetPage<E extends ObjectLiteral & { id: string }, N>(
  query: SelectQueryBuilder<E>,
  rows: EntityRows<E>,
  page: PageArgs,
  dialect: SqlDialect,
  toNode: (row: E, raw: Record<string, unknown>) => N,
  joined: string[] = [],
): Promise<Connection<N>> {
  const alias = query.alias;
  const newestFirst = page.order !== SortOrder.OLDEST_FIRST;
  const [before, beforeOrEqual, direction] = newestFirst ? (['<', '<=', 'DESC'] as const) : (['>', '>=', 'ASC'] as const);
  if (page.after) {
    const cursor = decodeCursor(page.after);
    // The first condition is implied by the second; it lets the database use the created_at index as a range.
    query
      .andWhere(`${alias}.created_at ${beforeOrEqual} :cursorAt`, { cursorAt: cursor.createdAt })
      .andWhere(`(${alias}.created_at ${before} :cursorAt OR ${alias}.id ${before} :cursorId)`, { cursorId: cursor.id });
  }
  query
    .select([rows.selection(alias), ...joined])
    .addSelect(dialect.exactTimestamp(`${alias}.created_at`), 'cursor_at')
    .orderBy(`${alias}.created_at`, direction)
    .addOrderBy(`${alias}.id`, direction)
    .limit(page.first + 1);
  const { entities, raw } = await rows.fromQuery<{ cursor_at: string }>(query);

  const shown = entities.slice(0, page.first);
  const edges = shown.map((row, i) => ({ cursor: encodeCursor({ createdAt: String(raw[i].cursor_at), id: row.id }), node: toNode(row, raw[i]) }));
  return { edges, pageInfo: { hasNextPage: entities.length > page.first, endCursor: edges.at(-1)?.cursor ?? null } };
}
