import { Selection } from './selection';

/**
 * For each field of a GraphQL model, the properties (columns) of its entity that the field reads:
 * every field must be listed, so a new field cannot be forgotten.
 */
export type ModelColumns<Model, Entity> = { readonly [Field in keyof Model]-?: readonly (keyof Entity & string)[] };

/**
 * The columns the fields of `selection` read, with `always` (keys, what the cursor or a join needs).
 * Names that are not fields of the model (__typename) read nothing.
 */
export function columnsFor<Model, Entity>(
  fieldColumns: ModelColumns<Model, Entity>,
  selection: Selection | undefined,
  always: readonly (keyof Entity & string)[],
): Set<keyof Entity & string> {
  const columns = new Set(always);
  for (const field of selection?.keys() ?? []) {
    if (!Object.hasOwn(fieldColumns, field)) continue;
    for (const column of (fieldColumns as Record<string, readonly (keyof Entity & string)[]>)[field]) columns.add(column);
  }
  return columns;
}

/** Every column some field reads: what a read for any query needs (the batched look-ups). */
export function allColumns<Model, Entity>(fieldColumns: ModelColumns<Model, Entity>): (keyof Entity & string)[] {
  return [...new Set(Object.values<readonly (keyof Entity & string)[]>(fieldColumns).flat())];
}
