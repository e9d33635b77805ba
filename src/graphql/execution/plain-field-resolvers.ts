import { GraphQLFieldResolver, GraphQLSchema, isObjectType } from 'graphql';

/** The name of the resolver @nestjs/graphql gives every @Field without middleware (ObjectTypeDefinitionFactory). */
const NEST_PROPERTY_RESOLVER = 'rootFieldResolver';

/**
 * Removes the resolver @nestjs/graphql puts on every plain @Field (`(root) => root[name] ?? defaultValue`),
 * so that graphql-jit compiles those fields as property reads instead of resolver calls (isPromise check,
 * error wrapping, for each field of each row of a page); graphql-js reads the property the same way.
 *
 * Only a resolver that provably does nothing else is removed: one that, called on a probe object, reads
 * exactly the field's own name and returns undefined. A @Field with `name` (reads another property) or
 * `defaultValue` keeps its resolver, as do @ResolveField methods, field middleware and the root types.
 *
 * The schema is changed in place: Nest builds its types for this one schema (and copies them again to sort
 * it), and assigns resolvers onto them the same way itself. Rebuilding would mean re-linking every type
 * reference (mapSchema, from a package that is not a dependency here) for the same result.
 */
export function withoutPlainFieldResolvers(schema: GraphQLSchema): GraphQLSchema {
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__') || roots.has(type)) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.resolve && isPlainPropertyRead(field.resolve, field.name)) field.resolve = undefined;
    }
  }
  return schema;
}

function isPlainPropertyRead(resolve: GraphQLFieldResolver<unknown, unknown>, fieldName: string): boolean {
  if (resolve.name !== NEST_PROPERTY_RESOLVER) return false;
  const reads: PropertyKey[] = [];
  const probe = new Proxy({}, { get: (_target, key) => void reads.push(key) });
  try {
    const value = (resolve as (root: unknown) => unknown)(probe);
    return value === undefined && reads.length === 1 && reads[0] === fieldName;
  } catch {
    return false;
  }
}
