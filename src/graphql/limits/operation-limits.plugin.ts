import { ApolloServerPlugin, HeaderMap } from '@apollo/server';
import { DocumentNode, GraphQLError, Kind, visit } from 'graphql';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator } from 'graphql-query-complexity';
import { operationDepth } from './operation-depth';

export interface OperationLimits {
  maxDepth: number;
  maxComplexity: number;
}

/**
 * Refuses an operation before execution when it nests too deeply or would cost too much (400, with
 * extensions.code QUERY_TOO_DEEP or QUERY_TOO_COMPLEX), saying the measured value and the limit.
 */
export function operationLimitsPlugin(limits: OperationLimits): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, operationName, request, schema }) {
          const memo = memoOf(document);
          const operation = operationName ?? '';
          const depth = memo.depth.get(operation) ?? operationDepth(document, operationName);
          memo.depth.set(operation, depth);
          if (depth > limits.maxDepth) {
            throw refusal('QUERY_TOO_DEEP', 400, `The query nests fields ${depth} levels deep; the limit is ${limits.maxDepth}`);
          }
          const variables = request.variables ?? {};
          // The estimate depends on the document and its page sizes only: remembered per (operation, page sizes).
          const key = JSON.stringify([operation, memo.pageSizeVariables.map((name) => variables[name] ?? null)]);
          let complexity = memo.complexity.get(key) ?? null;
          if (complexity === null) {
            complexity = estimate(
              () =>
                getComplexity({
                  schema,
                  query: document,
                  operationName: operationName ?? undefined,
                  variables,
                  estimators: [fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })],
                }),
              limits.maxComplexity,
            );
            // Not remembered when the variables did not fit (no estimate): execution refuses those.
            if (complexity !== null && memo.complexity.size < 64) memo.complexity.set(key, complexity);
          }
          if (complexity !== null && complexity > limits.maxComplexity) {
            throw refusal('QUERY_TOO_COMPLEX', 400, `The query has a complexity of ${complexity}; the limit is ${limits.maxComplexity}`);
          }
        },
      };
    },
  };
}

/**
 * What the limits learned about a parsed document. Apollo keeps parsed documents (the same object for
 * the same query text), so dashboards that repeat their queries are measured once per page size.
 */
interface DocumentMemo {
  depth: Map<string, number>;
  /** Variables passed as `first`: the only inputs of the estimate besides the document. */
  pageSizeVariables: string[];
  complexity: Map<string, number>;
}

const memos = new WeakMap<DocumentNode, DocumentMemo>();

function memoOf(document: DocumentNode): DocumentMemo {
  let memo = memos.get(document);
  if (!memo) {
    const pageSizeVariables = new Set<string>();
    visit(document, {
      Argument(node) {
        if (node.name.value === 'first' && node.value.kind === Kind.VARIABLE) pageSizeVariables.add(node.value.name.value);
      },
    });
    memo = { depth: new Map(), pageSizeVariables: [...pageSizeVariables], complexity: new Map() };
    memos.set(document, memo);
  }
  return memo;
}

/**
 * The estimate, or null when the variables do not fit the operation (execution then refuses them with
 * a clear error before any resolver runs). Too many fields once fragments are expanded is too complex.
 */
function estimate(run: () => number, limit: number): number | null {
  try {
    return run();
  } catch (error) {
    if (error instanceof GraphQLError && /maximum allowed number of nodes/.test(error.message)) {
      throw refusal('QUERY_TOO_COMPLEX', 400, `The query selects too many fields once its fragments are expanded; the complexity limit is ${limit}`);
    }
    return null;
  }
}

export function refusal(code: string, status: number, message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code, http: { status, headers: new HeaderMap() } } });
}

/**
 * Refuses a query document above the limit (413 QUERY_TOO_LARGE) before Apollo parses it. Called from
 * the context function: Apollo turns an error thrown there into a response with its own status,
 * whereas an error thrown from a plugin's early hooks becomes a 500.
 */
export function checkDocumentSize(request: { method: string; body?: unknown; query?: unknown }, maxBytes: number): void {
  const carrier = (request.method === 'GET' ? request.query : request.body) as { query?: unknown } | undefined;
  const query = carrier?.query;
  if (typeof query !== 'string') return;
  const bytes = Buffer.byteLength(query, 'utf8');
  if (bytes > maxBytes) throw refusal('QUERY_TOO_LARGE', 413, `The query document is ${bytes} bytes; the limit is ${maxBytes}`);
}
