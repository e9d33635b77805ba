import { FieldNode, GraphQLResolveInfo, Kind, SelectionSetNode } from 'graphql';

/** The fields a query asks for below one field: name → what it asks for below that (merged over aliases and fragments). */
export type Selection = Map<string, Selection>;

/** What the query selects inside the field being resolved. */
export function selectionOf(info: GraphQLResolveInfo): Selection {
  const selection: Selection = new Map();
  for (const node of info.fieldNodes) collect(node.selectionSet, info, selection);
  return selection;
}

/** The selection at a path below `selection` (e.g. 'edges', 'node' of a connection), or undefined when not asked for. */
export function selectionAt(selection: Selection | undefined, ...path: string[]): Selection | undefined {
  let current = selection;
  for (const name of path) current = current?.get(name);
  return current;
}

function collect(selectionSet: SelectionSetNode | undefined, info: GraphQLResolveInfo, into: Selection): void {
  for (const node of selectionSet?.selections ?? []) {
    if (node.kind === Kind.FIELD) {
      const name = (node as FieldNode).name.value;
      let child = into.get(name);
      if (!child) into.set(name, (child = new Map()));
      collect(node.selectionSet, info, child);
    } else if (node.kind === Kind.INLINE_FRAGMENT) {
      collect(node.selectionSet, info, into);
    } else {
      collect(info.fragments[node.name.value]?.selectionSet, info, into);
    }
  }
}
