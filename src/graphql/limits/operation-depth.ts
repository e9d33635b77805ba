import { DocumentNode, FragmentDefinitionNode, Kind, SelectionSetNode } from 'graphql';

/**
 * How deeply the chosen operation nests fields (`{ a { b } }` is 2), following fragments. Introspection
 * fields (__schema, __type …) are not counted: tools' introspection queries nest deeply by design and are
 * switched off in production anyway. Fragment cycles never get here (GraphQL validation refuses them).
 */
export function operationDepth(document: DocumentNode, operationName?: string | null): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const depthOf = (selectionSet: SelectionSetNode | undefined): number => {
    let deepest = 0;
    for (const selection of selectionSet?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        if (!selection.name.value.startsWith('__')) deepest = Math.max(deepest, 1 + depthOf(selection.selectionSet));
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        deepest = Math.max(deepest, depthOf(selection.selectionSet));
      } else {
        deepest = Math.max(deepest, depthOf(fragments.get(selection.name.value)?.selectionSet));
      }
    }
    return deepest;
  };
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  return depthOf(operation?.selectionSet);
}
