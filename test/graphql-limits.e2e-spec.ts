import { getIntrospectionQuery } from 'graphql';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Credentials, startTestApp, TestApp } from './setup/test-app';

type Gql = (who: Credentials | null, query: string, variables?: Record<string, unknown>) => ReturnType<ReturnType<TestApp['http']>['post']>;
const client = (t: TestApp, headers: Record<string, string> = {}): Gql => (who, query, variables) => {
  const request = t.http().post('/graphql').set(headers);
  if (who) request.auth(who.username, who.password);
  return request.send({ query, variables });
};

/** The dashboard's page: 50 sessions with billing profile, order and refunds (about 2,000 by the estimate). */
const DASHBOARD_PAGE = `query($after: String) { sessions(first: 50, after: $after) { edges { cursor node {
  id merchantReference state currency createdAt totalAmount { amount currency }
  billingProfile { name email country }
  order { id state total { amount currency } captureDeadline refunds { id state amount { amount currency } } } } }
  pageInfo { hasNextPage endCursor } } }`;

describe('GraphQL for dashboards: authentication, limits, environments, schema', () => {
  let t: TestApp;
  let gql: Gql;
  let merchant: Credentials;

  beforeAll(async () => {
    t = await startTestApp();
    gql = client(t);
    merchant = await t.merchantUser();
  });
  afterAll(() => t.close());

  describe('authentication', () => {
    it('without credentials: HTTP 401, AUTHENTICATION_REQUIRED, a Basic challenge, no data', async () => {
      const res = await gql(null, '{ sessions { edges { node { id } } } }');
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Basic realm="payments", charset="UTF-8"');
      expect(res.body).toEqual({
        data: null,
        errors: [
          expect.objectContaining({ message: 'Username/password must be supplied to access this resource', extensions: { code: 'AUTHENTICATION_REQUIRED' } }),
        ],
      });
    });

    it('with a wrong password or an unknown user: 401 AUTHENTICATION_REQUIRED with the "invalid" message', async () => {
      for (const who of [{ ...merchant, password: 'wrong-password' }, { username: 'nobody', password: 'whatever-pw', merchantId: null }]) {
        const res = await gql(who, '{ sessions { edges { node { id } } } }');
        expect(res.status).toBe(401);
        expect(res.body.errors).toEqual([expect.objectContaining({ message: 'Supplied username/password are invalid', extensions: { code: 'AUTHENTICATION_REQUIRED' } })]);
      }
    });
  });

  describe('limits', () => {
    it('accepts the 50-session dashboard page and refuses a query nested more than 10 levels (QUERY_TOO_DEEP, 400), fragments included', async () => {
      expect((await gql(merchant, DASHBOARD_PAGE)).body.errors).toBeUndefined();
      const deep = `{ sessions { edges { node { order { refunds { order { session { order { refunds { order { id } } } } } } } } } } }`;
      const viaFragment = `{ sessions { edges { node { ...deep } } } }
        fragment deep on Session { order { refunds { order { session { order { refunds { order { session { id } } } } } } } } }`;
      for (const query of [deep, viaFragment]) {
        const res = await gql(merchant, query);
        expect(res.status).toBe(400);
        expect(res.body.data).toBeUndefined();
        expect(res.body.errors).toEqual([
          expect.objectContaining({ message: expect.stringMatching(/^The query nests fields 1[12] levels deep; the limit is 10$/), extensions: { code: 'QUERY_TOO_DEEP' } }),
        ]);
      }
    });

    it('refuses a query whose estimated cost is above 5000 (QUERY_TOO_COMPLEX, 400) before running anything', async () => {
      const page = (alias: string) => `${alias}: sessions(first: 100) { edges { node { id state totalAmount { amount currency }
        billingProfile { name email } order { id state refunds { id state amount { amount } } } } } }`;
      const res = await gql(merchant, `{ ${['a', 'b', 'c'].map(page).join(' ')} }`);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        expect.objectContaining({ message: expect.stringMatching(/^The query has a complexity of \d+; the limit is 5000$/), extensions: { code: 'QUERY_TOO_COMPLEX' } }),
      ]);
      // One such page is fine.
      expect((await gql(merchant, `{ ${page('a')} }`)).body.errors).toBeUndefined();
    });

    it('counts page sizes given as variables, and a request with bad variables does not make a heavy query pass later', async () => {
      const query = `query($first: Int!, $after: String) { ${['a', 'b', 'c']
        .map((alias) => `${alias}: sessions(first: $first, after: $after) { edges { node { id state totalAmount { amount currency }
          billingProfile { name email } order { id state refunds { id state amount { amount } } } } } }`)
        .join(' ')} }`;
      expect((await gql(merchant, query, { first: 1 })).body.errors).toBeUndefined();
      const badVariables = await gql(merchant, query, { first: 100, after: 5 });
      expect(badVariables.status).toBe(400);
      expect(badVariables.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      const heavy = await gql(merchant, query, { first: 100 });
      expect(heavy.status).toBe(400);
      expect(heavy.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    });

    it('refuses a query document above 10 kB (QUERY_TOO_LARGE, 413) before parsing it', async () => {
      const padded = `# ${'x'.repeat(10 * 1024)}\n{ sessions { edges { node { id } } } }`;
      const res = await gql(merchant, padded);
      expect(res.status).toBe(413);
      expect(res.body.errors).toEqual([
        expect.objectContaining({ message: `The query document is ${Buffer.byteLength(padded)} bytes; the limit is 10240`, extensions: { code: 'QUERY_TOO_LARGE' } }),
      ]);
    });

    it('still lets GraphQL tools introspect the schema in the sandbox (introspection fields are not counted as depth)', async () => {
      const res = await gql(merchant, getIntrospectionQuery());
      expect(res.status).toBe(200);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.__schema.queryType.name).toBe('Query');
    });

    it('reports a syntax error or an unknown field as GraphQL does (400), without internals', async () => {
      const syntax = await gql(merchant, '{ sessions { ');
      expect(syntax.status).toBe(400);
      expect(syntax.body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
      const unknown = await gql(merchant, '{ sessions { edges { node { password } } } }');
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors[0].extensions).toEqual({ code: 'GRAPHQL_VALIDATION_FAILED' });
    });
  });

  describe('sandbox landing page', () => {
    it('a browser gets a static page with a curl example and the schema, no scripts from anywhere', async () => {
      const res = await t.http().get('/graphql').set('Accept', 'text/html');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('GraphQL for dashboards');
      expect(res.text).toContain('type Query {');
      expect(res.text).not.toMatch(/<script/i);
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    });
  });

  describe('schema.gql', () => {
    it('the committed schema.gql is the schema the code generates (GRAPHQL_SCHEMA_FILE)', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'graphql-schema-'));
      const emitted = join(dir, 'schema.gql');
      const committed = join(__dirname, '..', 'schema.gql');
      const other = await startTestApp({ GRAPHQL_SCHEMA_FILE: emitted });
      try {
        const generated = readFileSync(emitted, 'utf8');
        // UPDATE_GRAPHQL_SCHEMA=1 npx jest test/graphql-limits --selectProjects e2e-sqlite rewrites the committed file.
        if (process.env.UPDATE_GRAPHQL_SCHEMA === '1') writeFileSync(committed, generated);
        expect(readFileSync(committed, 'utf8')).toBe(generated);
      } finally {
        await other.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});

describe('GraphQL for dashboards in production (APP_ENV=production)', () => {
  let t: TestApp;
  let gql: Gql;
  let merchant: Credentials;

  beforeAll(async () => {
    t = await startTestApp({ APP_ENV: 'production', TRUST_PROXY: '1', SECRETS_KEY: randomBytes(32).toString('base64') });
    gql = client(t, { 'X-Forwarded-Proto': 'https' });
    merchant = await t.merchantUser();
  });
  afterAll(() => t.close());

  it('answers queries as in the sandbox', async () => {
    const res = await gql(merchant, '{ sessions { edges { node { id } } pageInfo { hasNextPage } } }');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { sessions: { edges: [], pageInfo: { hasNextPage: false } } } });
  });

  it('has introspection off', async () => {
    for (const query of [getIntrospectionQuery(), '{ __schema { queryType { name } } }', '{ __type(name: "Session") { name } }']) {
      const res = await gql(merchant, query);
      expect(res.status).toBe(400);
      expect(res.body.data).toBeUndefined();
      expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(res.body.errors[0].message).toMatch(/introspection is not allowed/i);
    }
  });

  it('gives no field suggestions that would reveal the schema', async () => {
    const res = await gql(merchant, '{ sessions { edges { node { stat } } } }');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).not.toMatch(/did you mean/i);
  });

  it('has no landing page', async () => {
    const res = await t.http().get('/graphql').set('Accept', 'text/html').set('X-Forwarded-Proto', 'https');
    expect(res.headers['content-type']).not.toMatch(/text\/html/);
    expect(res.text).not.toContain('GraphQL for dashboards');
  });
});
