import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { ApolloDriverConfig } from '@nestjs/apollo';
import { AppConfig } from '../common/config/app-config';
import { formatGraphqlError } from './errors/graphql-errors';
import { compiledQueriesPlugin } from './execution/compiled-queries.plugin';
import { withoutPlainFieldResolvers } from './execution/plain-field-resolvers';
import { GraphqlContext } from './graphql-context';
import { GRAPHQL_LIMITS } from './limits/graphql-limits';
import { checkDocumentSize, operationLimitsPlugin } from './limits/operation-limits.plugin';
import { Relations } from './read/relations';
import { LoaderFactory } from './read/request-loaders';
import { sandboxLandingPagePlugin } from './sandbox-landing-page.plugin';

/** Apollo's configuration for /graphql (see docs/decisions.md, "GraphQL for dashboards"). */
export function graphqlOptions(config: AppConfig, loaders: LoaderFactory): Omit<ApolloDriverConfig, 'driver'> {
  const production = config.environment === 'production';
  return {
    path: '/graphql',
    // Code first; the schema stays in memory unless GRAPHQL_SCHEMA_FILE asks for the file (schema.gql is committed).
    autoSchemaFile: config.graphqlSchemaFile ?? true,
    sortSchema: true,
    // Plain @Field reads without Nest's per-field resolver: graphql-jit compiles them to property reads.
    transformSchema: withoutPlainFieldResolvers,
    introspection: !production,
    // Nest's default playground loads from a CDN; the sandbox gets a static page instead (plugin below).
    playground: false,
    hideSchemaDetailsFromClientErrors: production,
    includeStacktraceInErrorResponses: false,
    // Let a 401 from authentication reach the HTTP status (Nest would reset it to 200).
    preserveHttpStatusForExecutionErrors: false,
    formatError: formatGraphqlError,
    plugins: [
      operationLimitsPlugin(GRAPHQL_LIMITS),
      ...(production ? [] : [sandboxLandingPagePlugin()]),
      // No HTTP caching of dashboard data; the cache-control plugin would also wrap every field resolver.
      ApolloServerPluginCacheControlDisabled(),
      compiledQueriesPlugin(),
    ],
    // Compact JSON: Apollo pretty-prints by default, which doubles a page's size and the time to send it.
    stringifyResult: (value) => JSON.stringify(value),
    // Queries are documents sent by dashboards, not stored by hash: no automatic persisted queries.
    persistedQueries: false,
    context: ({ req, res }: Pick<GraphqlContext, 'req' | 'res'>): GraphqlContext => {
      checkDocumentSize(req, GRAPHQL_LIMITS.maxDocumentBytes);
      return { req, res, relations: new Relations(loaders.forRequest()) };
    },
  };
}
