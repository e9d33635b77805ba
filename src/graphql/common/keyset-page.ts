import { EntityRows } from '../../common/database/reads/entity-rows';
import { ReadQuery } from '../../common/database/reads/read-query';
import { Connection } from './connection.model';
import { decodeCursor, encodeCursor } from './cursor';
import { PageArgs, SortOrder } from './page.args';

/**
 * One page of `query` in (created_at, id) order after the cursor, read as first + 1 rows so that
 * hasNextPage needs no COUNT. Keyset, not OFFSET: rows inserted while a client pages never shift the
 * rows it has not seen yet, so no row is repeated or skipped. `query` filters (and may join and select
 * what the joins bring, which `toNode` finds in the raw row); `rows` names the columns of the main alias read.
 */
export async function keysetPage<E extends { id: string }, N>(
  query: ReadQuery,
  rows: EntityRows<E>,
  page: PageArgs,
  toNode: (row: E, raw: Record<string, unknown>) => N,
): Promise<Connection<N>> {
  const alias = query.alias;
  const newestFirst = page.order !== SortOrder.OLDEST_FIRST;
  const [before, beforeOrEqual, direction] = newestFirst ? (['<', '<=', 'DESC'] as const) : (['>', '>=', 'ASC'] as const);
  if (page.after) {
    const cursor = decodeCursor(page.after);
    // The first condition is implied by the second; it lets the database use the created_at index as a range.
    query
      .where(`${alias}.created_at ${beforeOrEqual} ?`, cursor.createdAt)
      .where(`${alias}.created_at ${before} ? OR ${alias}.id ${before} ?`, cursor.createdAt, cursor.id);
  }
  query
    .select(rows.selection(alias), `${query.dialect.exactTimestamp(`${alias}.created_at`)} AS cursor_at`)
    .orderBy(`${alias}.created_at ${direction}, ${alias}.id ${direction}`)
    .limit(page.first + 1);
  const raw = await query.rows<{ cursor_at: string }>();
  const prefix = `${alias}_`;

  const shown = raw.length > page.first ? raw.slice(0, page.first) : raw;
  const edges = shown.map((row) => {
    const entity = rows.hydrate(row, prefix);
    return { cursor: encodeCursor({ createdAt: String(row.cursor_at), id: entity.id }), node: toNode(entity, row) };
  });
  return { edges, pageInfo: { hasNextPage: raw.length > page.first, endCursor: edges.at(-1)?.cursor ?? null } };
}
