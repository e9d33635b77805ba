import { randomUUID } from 'node:crypto';
import { AppConfig } from '../src/common/config/app-config';
import { sessionBody } from './setup/factories';
import { Credentials, startTestApp, TestApp } from './setup/test-app';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** The value of the one sample with exactly these labels, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)\{([^}]*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...match[2].matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const wanted = Object.entries(labels);
    if (wanted.length === Object.keys(found).length && wanted.every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

describe('Metrics: GET /metrics (Prometheus)', () => {
  let t: TestApp;
  let m: Credentials;
  let text: string;
  const CREATED = 3;

  beforeAll(async () => {
    t = await startTestApp();
    m = await t.merchantUser();
    const ids: string[] = [];
    for (let i = 0; i < CREATED; i++) {
      const res = await t.http().post('/v2.22/session').auth(m.username, m.password).send(sessionBody());
      expect(res.status).toBe(201);
      ids.push(res.body.SessionId);
    }
    for (const id of ids.slice(0, 2)) expect((await t.http().get(`/v2.22/session/${id}`).auth(m.username, m.password)).status).toBe(200);
    expect((await t.http().get(`/v2.22/session/${randomUUID()}`).auth(m.username, m.password)).status).toBe(404);
    expect((await t.http().get(`/v2.22/session/${ids[0]}`)).status).toBe(401);
    expect((await t.http().get(`/no/such/path/${randomUUID()}`)).status).toBe(404);
    const res = await t.http().get('/metrics');
    expect(res.status).toBe(200);
    // Express normalises the parameter order (charset first); Prometheus reads either.
    expect(res.headers['content-type']).toMatch(/^text\/plain;/);
    expect(res.headers['content-type']).toContain('version=0.0.4');
    expect(res.headers['cache-control']).toBe('no-store');
    text = res.text;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts requests by method, matched route pattern and status', () => {
    const route = '/v2.22/session/:SessionId';
    expect(sample(text, 'http_requests_total', { method: 'POST', route: '/v2.22/session', status: '201' })).toBe(CREATED);
    expect(sample(text, 'http_requests_total', { method: 'GET', route, status: '200' })).toBe(2);
    expect(sample(text, 'http_requests_total', { method: 'GET', route, status: '404' })).toBe(1);
    expect(sample(text, 'http_requests_total', { method: 'GET', route, status: '401' })).toBe(1);
    expect(sample(text, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
  });

  it('never puts a raw id (a UUID) in any label', () => {
    expect(text).not.toMatch(UUID);
  });

  it('has latency histograms with buckets, sum and count', () => {
    const labels = { method: 'GET', route: '/v2.22/session/:SessionId', status: '200' };
    expect(sample(text, 'http_request_duration_seconds_bucket', { le: '+Inf', ...labels })).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_bucket', { le: '0.005', ...labels })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'http_request_duration_seconds_count', labels)).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
  });

  it('reports payment sessions by state, read at scrape time', async () => {
    expect(sample(text, 'payment_sessions', { state: 'CREATED' })).toBe(CREATED);
    expect(sample(text, 'payment_sessions', { state: 'COMPLETED' })).toBe(0);
    await t.http().post('/v2.22/session').auth(m.username, m.password).send(sessionBody());
    expect(sample((await t.http().get('/metrics')).text, 'payment_sessions', { state: 'CREATED' })).toBe(CREATED + 1);
  });

  it('reports orders by state, read at scrape time', async () => {
    expect(sample(text, 'payment_orders', { state: 'Processed' })).toBe(0);
    const session = await t.http().post('/v2.22/session').auth(m.username, m.password).send(sessionBody());
    const card = { Name: 'A', Number: '4111111111111111', VerificationCode: '123', Expiry: { Month: 12, Year: 2040 } };
    expect((await t.http().post(`/pay/${session.body.SessionId}`).send({ PaymentMethod: 'CARD', Card: card })).body.Outcome).toBe('COMPLETED');
    expect(sample((await t.http().get('/metrics')).text, 'payment_orders', { state: 'Processed' })).toBe(1);
  });

  it('includes the process and Node.js default metrics', () => {
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('reports database pool use on MariaDB and no pool gauge on SQLite', () => {
    if (t.database.kind === 'mysql') {
      for (const state of ['used', 'free', 'pending']) {
        expect(sample(text, 'db_pool_connections', { state })).toBeGreaterThanOrEqual(0);
      }
      const used = sample(text, 'db_pool_connections', { state: 'used' })!;
      const free = sample(text, 'db_pool_connections', { state: 'free' })!;
      expect(used + free).toBeGreaterThan(0);
      expect(used + free).toBeLessThanOrEqual(10);
    } else {
      expect(text).not.toContain('db_pool_connections');
    }
  });

  it('each app has its own registry: a second instance starts from zero', async () => {
    const other = await startTestApp();
    try {
      const res = await other.http().get('/metrics');
      expect(sample(res.text, 'http_requests_total', { method: 'POST', route: '/v2.22/session', status: '201' })).toBeUndefined();
      expect(sample(res.text, 'payment_sessions', { state: 'CREATED' })).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('is version-neutral and not in the OpenAPI document', async () => {
    expect((await t.http().get('/v2.22/metrics')).status).toBe(404);
    const doc = await t.http().get('/openapi.json');
    expect(Object.keys(doc.body.paths).filter((path) => path.includes('metrics'))).toEqual([]);
  });
});

describe('Metrics: METRICS_TOKEN', () => {
  const TOKEN = 'metrics-token-0123456789abcdef';
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ METRICS_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('requires the bearer token when it is set', async () => {
    const none = await t.http().get('/metrics');
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(none.text).not.toContain('http_requests_total');
    expect((await t.http().get('/metrics').set('Authorization', 'Bearer wrong-token-0123456789')).status).toBe(401);
    expect((await t.http().get('/metrics').set('Authorization', `Basic ${TOKEN}`)).status).toBe(401);
    const ok = await t.http().get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('http_requests_total');
  });

  it('a too short METRICS_TOKEN stops the start with a message naming it', () => {
    expect(() => AppConfig.fromEnvironment({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });
});
