import type { ApolloServerPlugin, BaseContext, GraphQLRequestContextResponseForOperation } from '@apollo/server';
import { compileQuery, CompiledQuery, isCompiledQuery } from 'graphql-jit';

/** How many distinct query documents stay compiled: dashboards send a handful, each many times. */
const DEFAULT_MAX_DOCUMENTS = 200;

/**
 * Runs read-only operations through graphql-jit: each query document is compiled once into plain
 * JavaScript, which executes a 50-row dashboard page several times faster than graphql-js walking the
 * document per row. Only the happy path is taken here: mutations, and any query whose compiled run
 * reports an error, go through Apollo's own executor, so that every error is produced and formatted
 * in one place (a failed read simply runs twice). Parsing, validation and the operation limits have
 * already run when this hook is called.
 */
export function compiledQueriesPlugin<Context extends BaseContext>(maxDocuments = DEFAULT_MAX_DOCUMENTS): ApolloServerPlugin<Context> {
  const compiled = new Map<string, CompiledQuery | null>();

  const compiledFor = (request: GraphQLRequestContextResponseForOperation<Context>): CompiledQuery | null => {
    const key = `${request.operationName ?? ''}\n${request.source}`;
    let query = compiled.get(key);
    if (query === undefined) {
      const result = compileQuery(request.schema, request.document, request.operationName ?? undefined);
      // A document graphql-jit cannot compile (null) is remembered too, so it is not tried again.
      query = isCompiledQuery(result) ? result : null;
      if (compiled.size >= maxDocuments) compiled.delete(compiled.keys().next().value!);
      compiled.set(key, query);
    }
    return query;
  };

  return {
    requestDidStart() {
      return Promise.resolve({
        async responseForOperation(request) {
          if (request.operation.operation !== 'query') return null;
          const query = compiledFor(request);
          if (!query) return null;
          const result = await query.query(undefined, request.contextValue, request.request.variables ?? {});
          if (result.errors?.length) return null;
          return { http: request.response.http, body: { kind: 'single', singleResult: { data: result.data } } };
        },
      });
    },
  };
}
