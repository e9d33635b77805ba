/**
 * What one GraphQL request may ask for. A dashboard page of 50 sessions with billing profile, order and
 * refunds costs about 2,000 and is 7 levels deep; the limits leave room for that and refuse queries
 * that multiply pages (aliases, deep cycles through order → session → order …).
 */
export const GRAPHQL_LIMITS = {
  /** Bytes of the query document (variables are bounded by BODY_LIMIT like every body). */
  maxDocumentBytes: 10 * 1024,
  /** Nesting of fields, introspection (__schema …) not counted. */
  maxDepth: 10,
  /** graphql-query-complexity: 1 per field, connections × first, nested lists × their expected size. */
  maxComplexity: 5000,
};

/** Cost of a field that a DataLoader fills: one more batched query per level. */
export const LOADED_FIELD_COST = 2;
/** What a list of refunds of one order is expected to hold, for the complexity estimate. */
export const EXPECTED_REFUNDS_PER_ORDER = 3;
/**
 * What the lines of one remittance are expected to number, for the complexity estimate: a remittance
 * with every field of its lines costs ~1,000, so a list may ask for lines over about five remittances
 * (page without them, then open one with remittance(id)).
 */
export const EXPECTED_LINES_PER_REMITTANCE = 50;
