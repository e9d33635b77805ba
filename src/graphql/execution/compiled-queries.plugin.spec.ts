import { ApolloServer, ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { compiledQueriesPlugin } from './compiled-queries.plugin';

const typeDefs = `
  type Item { id: ID!, price: Int! }
  type Query { items(count: Int!): [Item!]!, broken: Int }
  type Mutation { touch: Int! }
`;

describe('compiledQueriesPlugin', () => {
  let server: ApolloServer;
  /** Operations Apollo's own executor ran (executionDidStart is not called when the plugin answered). */
  let apolloExecutions: number;
  let touches: number;

  beforeEach(async () => {
    apolloExecutions = 0;
    touches = 0;
    const countExecutions: ApolloServerPlugin = {
      requestDidStart: () => Promise.resolve({ executionDidStart: () => Promise.resolve(void apolloExecutions++) }),
    };
    server = new ApolloServer({
      typeDefs,
      resolvers: {
        Query: {
          items: (_: unknown, { count }: { count: number }) => Array.from({ length: count }, (_, i) => ({ id: `i${i}`, price: i * 100 })),
          broken: () => {
            throw new GraphQLError('it broke', { extensions: { code: 'BROKEN' } });
          },
        },
        Mutation: { touch: () => ++touches },
      },
      plugins: [compiledQueriesPlugin(), countExecutions],
      formatError: (formatted) => ({ message: formatted.message, extensions: { code: formatted.extensions?.code, formatted: true } }),
    });
    await server.start();
  });

  afterEach(() => server.stop());

  const run = async (query: string, variables?: Record<string, unknown>) => {
    const response = await server.executeOperation({ query, variables });
    if (response.body.kind !== 'single') throw new Error('expected a single result');
    return response.body.singleResult;
  };

  it('answers a query from the compiled document, the same data graphql-js gives', async () => {
    const query = 'query Items($n: Int!) { items(count: $n) { id price } }';
    const first = await run(query, { n: 3 });
    const second = await run(query, { n: 2 });
    expect(first).toEqual({ data: { items: [{ id: 'i0', price: 0 }, { id: 'i1', price: 100 }, { id: 'i2', price: 200 }] } });
    expect(second.data).toEqual({ items: [{ id: 'i0', price: 0 }, { id: 'i1', price: 100 }] });
    expect(apolloExecutions).toBe(0);
  });

  it("leaves a query with an error to Apollo's executor, so that the error is formatted as everywhere", async () => {
    const result = await run('{ broken }');
    expect(result.errors).toEqual([{ message: 'it broke', extensions: { code: 'BROKEN', formatted: true } }]);
    expect(apolloExecutions).toBe(1);
  });

  it('never runs a mutation itself (a mutation must run exactly once)', async () => {
    const result = await run('mutation { touch }');
    expect(result.data).toEqual({ touch: 1 });
    expect(touches).toBe(1);
    expect(apolloExecutions).toBe(1);
  });
});
