import Redis from 'ioredis';
import { createHmac, randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { CheckoutClient, CheckoutClientError } from '../src/checkout/client/checkout-client';
import { AppConfig } from '../src/common/config/app-config';
import { clientAddressKey } from '../src/common/rate-limit/rate-limiter';
import { MemoryRateLimitStore } from '../src/common/rate-limit/rate-limit-store';
import { startCheckoutApp } from './setup/checkout';
import { Credentials, startTestApp, TestApp } from './setup/test-app';

const SESSION = '/v2.22/session/3f2b8a9e-4c1d-4e7a-9b6f-1a2b3c4d5e6f';
const REDIS_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';
const sign = (secret: string, text: string) => createHmac('sha256', secret).update(text, 'utf8').digest('base64');

/** A read the route answers 404 SESSION_NOT_FOUND: authenticated, cheap, and counted. */
const read = (t: TestApp, user: Credentials) => t.http().get(SESSION).auth(user.username, user.password);

const expectTooMany = (res: { status: number; body: unknown; headers: Record<string, string> }, what: RegExp) => {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ Code: 'TOO_MANY_REQUESTS', Message: expect.stringMatching(what), RequestId: res.headers['x-request-id'] });
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
};

/** Synchronously (describe blocks are chosen before anything async runs): does Redis answer PING? */
function redisAnswers(url: string): boolean {
  const probe = `
    const net = require('node:net'); const u = new URL(process.argv[1]);
    const s = net.connect(Number(u.port) || 6379, u.hostname);
    s.setTimeout(1500, () => process.exit(1)); s.on('error', () => process.exit(1));
    s.on('connect', () => s.write('PING\\r\\n'));
    s.on('data', (d) => process.exit(/^(\\+PONG|-NOAUTH)/.test(String(d)) ? 0 : 1));`;
  return spawnSync(process.execPath, ['-e', probe, url], { timeout: 5000 }).status === 0;
}

describe('Rate limits: configuration', () => {
  it('is off by default (npm run bench is never throttled) and 0 means off', () => {
    expect(AppConfig.fromEnvironment({}).rateLimit).toEqual({ perCredentialPerMinute: null, perIpPerMinute: null, keyPrefix: 'payments:ratelimit:', redisUrl: null });
    expect(AppConfig.fromEnvironment({ RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_IP_PER_MINUTE: '0' }).rateLimit.perIpPerMinute).toBeNull();
  });

  it.each([
    ['RATE_LIMIT_PER_MINUTE', 'many'],
    ['RATE_LIMIT_PER_MINUTE', '-1'],
    ['RATE_LIMIT_IP_PER_MINUTE', '1.5'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['RATE_LIMIT_KEY_PREFIX', 'has space'],
  ])('%s=%s stops the start with a message naming it', (name, value) => {
    expect(() => AppConfig.fromEnvironment({ [name]: value })).toThrow(new RegExp(name));
  });

  it('no limit configured: a burst from one credential and one address is never refused', async () => {
    const t = await startTestApp();
    try {
      const user = await t.merchantUser();
      const statuses = await Promise.all(Array.from({ length: 60 }, () => read(t, user).then((res) => res.status)));
      expect(new Set(statuses)).toEqual(new Set([404]));
    } finally {
      await t.close();
    }
  });

  it('IPv6 clients are counted by their /64 network, IPv4 (mapped too) by address', () => {
    expect(clientAddressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientAddressKey('::1')).toBe('0:0:0:0::/64');
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
  });

  it('the memory store opens a window on the first hit, counts in it, and forgets ended windows', async () => {
    let now = 1_000_000;
    const store = new MemoryRateLimitStore(() => now);
    try {
      expect(await store.hit('k', 60_000)).toEqual({ count: 1, resetMs: 60_000 });
      now += 10_000;
      expect(await store.hit('k', 60_000)).toEqual({ count: 2, resetMs: 50_000 });
      now += 50_000;
      expect(await store.hit('k', 60_000)).toEqual({ count: 1, resetMs: 60_000 });
      await store.hit('other', 1000);
      now += 60_000;
      store.sweep();
      expect(store.size).toBe(0);
    } finally {
      await store.close();
    }
  });
});

describe('Rate limits in memory: Session interface', () => {
  describe('per credential (RATE_LIMIT_PER_MINUTE)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('refuses the request over the limit with 429 TOO_MANY_REQUESTS and Retry-After, for that user only', async () => {
      const [a, b] = [await t.merchantUser(), await t.merchantUser()];
      for (let i = 0; i < 3; i++) expect((await read(t, a)).status).toBe(404);
      expectTooMany(await read(t, a), /credentials.*3 per minute/);
      // Writes too, before anything runs: nothing is created.
      const post = await t.http().post('/v2.22/session').auth(a.username, a.password).send({});
      expectTooMany(post, /credentials/);
      // Another user from the same address is not affected.
      expect((await read(t, b)).status).toBe(404);
    });

    it('counts only verified credentials: wrong passwords for a username do not use up its quota', async () => {
      const user = await t.merchantUser();
      for (let i = 0; i < 5; i++) expect((await t.http().get(SESSION).auth(user.username, 'wrong')).status).toBe(401);
      expect((await read(t, user)).status).toBe(404);
    });

    it('never limits health probes or metrics, nor anonymous requests', async () => {
      for (let i = 0; i < 6; i++) {
        expect((await t.http().get('/health/live')).status).toBe(200);
        expect((await t.http().get('/metrics')).status).toBe(200);
        expect((await t.http().get(SESSION)).status).toBe(401);
      }
    });
  });

  describe('per IP address (RATE_LIMIT_IP_PER_MINUTE)', () => {
    it('counts every request from the address, failed logins included, except probes and metrics', async () => {
      const t = await startTestApp({ RATE_LIMIT_IP_PER_MINUTE: '4' });
      try {
        const user = await t.merchantUser();
        expect((await t.http().get(SESSION)).status).toBe(401);
        expect((await t.http().get(SESSION).auth(user.username, 'wrong')).status).toBe(401);
        expect((await read(t, user)).status).toBe(404);
        expect((await read(t, user)).status).toBe(404);
        expectTooMany(await read(t, user), /IP address.*4 per minute/);
        // A brute force gets 429 before the password is even checked.
        expectTooMany(await t.http().get(SESSION).auth(user.username, 'guess'), /IP address/);
        expect((await t.http().get('/health/live')).status).toBe(200);
        expect((await t.http().get('/health/ready')).status).toBe(200);
        expect((await t.http().get('/metrics')).status).toBe(200);
      } finally {
        await t.close();
      }
    });

    it('with TRUST_PROXY=1 the client is X-Forwarded-For (the proxy\'s view); without it the header is ignored', async () => {
      const proxied = await startTestApp({ RATE_LIMIT_IP_PER_MINUTE: '2', TRUST_PROXY: '1' });
      const direct = await startTestApp({ RATE_LIMIT_IP_PER_MINUTE: '2' });
      try {
        const from = (t: TestApp, ip: string) => t.http().get(SESSION).set('X-Forwarded-For', ip);
        expect((await from(proxied, '203.0.113.1')).status).toBe(401);
        expect((await from(proxied, '203.0.113.1')).status).toBe(401);
        expect((await from(proxied, '203.0.113.1')).status).toBe(429);
        expect((await from(proxied, '203.0.113.2')).status).toBe(401);
        // A client cannot dodge the limit by making up X-Forwarded-For when no proxy is trusted.
        expect((await from(direct, '198.51.100.1')).status).toBe(401);
        expect((await from(direct, '198.51.100.2')).status).toBe(401);
        expect((await from(direct, '198.51.100.3')).status).toBe(429);
      } finally {
        await proxied.close();
        await direct.close();
      }
    });
  });

  it('GraphQL: one count per HTTP request whatever its root fields, and no data over the limit', async () => {
    const t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '2', RATE_LIMIT_IP_PER_MINUTE: '1000' });
    try {
      const user = await t.merchantUser();
      const query = 'query($filter: SessionFilter) { a: sessions(filter: $filter) { edges { node { id } } } b: sessions(filter: $filter) { edges { node { id } } } }';
      const gql = () => t.http().post('/graphql').auth(user.username, user.password).send({ query, variables: { filter: {} } });
      for (let i = 0; i < 2; i++) {
        const res = await gql();
        expect(res.body.errors).toBeUndefined();
        expect(res.body.data).toEqual({ a: { edges: [] }, b: { edges: [] } });
      }
      const refused = await gql();
      expect(refused.body.data ?? null).toBeNull();
      const codes = refused.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code);
      expect(codes.length).toBeGreaterThan(0);
      expect(new Set(codes)).toEqual(new Set(['TOO_MANY_REQUESTS']));
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    } finally {
      await t.close();
    }
  });

  it('each instance counts alone without REDIS_URL', async () => {
    const t1 = await startTestApp({ RATE_LIMIT_PER_MINUTE: '2' });
    const t2 = await startTestApp({ RATE_LIMIT_PER_MINUTE: '2' }, { shareDatabaseWith: t1 });
    try {
      const user = await t1.merchantUser();
      for (const t of [t1, t1, t2, t2]) expect((await read(t, user)).status).toBe(404);
      expect((await read(t1, user)).status).toBe(429);
      expect((await read(t2, user)).status).toBe(429);
    } finally {
      await t2.close();
      await t1.close();
    }
  });
});

describe('Rate limits: Checkout interface (signed errors)', () => {
  /** A client whose fetch keeps the last response's headers. */
  const recording = (base: string, merchantId: string, signingSecret: string) => {
    const seen: { headers?: Headers } = {};
    const client = new CheckoutClient({
      baseUrl: base,
      merchantId,
      signingSecret,
      fetch: (async (input: string, init?: RequestInit) => {
        const res = await fetch(input, init);
        seen.headers = res.headers;
        return res;
      }) as typeof fetch,
    });
    return { client, seen };
  };

  it('per merchant: the call over the limit gets a signed {"Error":{"Code":"TooManyRequests"}} with Retry-After', async () => {
    const c = await startCheckoutApp({ RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const { client, seen } = recording(c.base, c.merchantId, c.secret);
      // Calls in this merchant's name that fail the signature check do not use up its quota.
      const forger = new CheckoutClient({ baseUrl: c.base, merchantId: c.merchantId, signingSecret: 'not-the-secret' });
      for (let i = 0; i < 3; i++) await expect(forger.getRates()).rejects.toMatchObject({ status: 401 });
      await client.getRates();
      await client.paymentMethods({ Country: 'US', Currency: 'USD' });
      // The client verified the answer's signature before reporting the error.
      const error: CheckoutClientError = await client.getRates().then(() => null as never, (e: CheckoutClientError) => e);
      expect(error).toBeInstanceOf(CheckoutClientError);
      expect([error.status, error.code]).toEqual([429, 'TooManyRequests']);
      expect(Number(seen.headers!.get('retry-after'))).toBeGreaterThanOrEqual(1);

      // The body in full, form-encoded as the call was.
      const text = JSON.stringify({ MerchantId: c.merchantId, Timestamp: new Date().toISOString(), Nonce: randomUUID() });
      const res = await fetch(`${c.base}/getRates`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ request: text, signature: sign(c.secret, text) }).toString(),
      });
      expect(res.status).toBe(429);
      const form = new URLSearchParams(await res.text());
      expect(form.get('signature')).toBe(sign(c.secret, form.get('response')!));
      expect(JSON.parse(form.get('response')!)).toEqual({
        Error: { Code: 'TooManyRequests', Message: expect.stringMatching(/2 per minute/), RequestId: res.headers.get('x-request-id') },
      });

      // Another merchant has its own quota.
      await expect((await c.otherMerchant()).getRates()).resolves.toBeDefined();
    } finally {
      await c.t.close();
    }
  });

  it('per IP: refused before the signature is checked, signed for the merchant the call names (plain JSON for an unknown one)', async () => {
    const c = await startCheckoutApp({ RATE_LIMIT_IP_PER_MINUTE: '2' });
    try {
      const { client, seen } = recording(c.base, c.merchantId, c.secret);
      await client.getRates();
      await client.getRates();
      const error = await client.getRates().then(() => null, (e: CheckoutClientError) => e);
      expect([error?.status, error?.code]).toEqual([429, 'TooManyRequests']);
      expect(Number(seen.headers!.get('retry-after'))).toBeGreaterThanOrEqual(1);

      const unknown = JSON.stringify({ MerchantId: randomUUID() });
      const res = await fetch(`${c.base}/getRates?${new URLSearchParams({ request: unknown, signature: 'x' })}`);
      expect(res.status).toBe(429);
      expect(await res.json()).toEqual({ Error: { Code: 'TooManyRequests', Message: expect.any(String), RequestId: res.headers.get('x-request-id') } });
    } finally {
      await c.t.close();
    }
  });
});

// CI (.ci/run) starts Redis and sets REDIS_TEST_URL: then these tests always run and fail if Redis is
// missing. Only a developer machine without that variable and without Redis skips them, saying so.
const redisReachable = process.env.REDIS_TEST_URL !== undefined || redisAnswers(REDIS_URL);
if (!redisReachable) {
  // eslint-disable-next-line no-console
  console.warn(`SKIPPED: the Redis rate-limit tests need Redis at ${REDIS_URL} (set REDIS_TEST_URL, or start redis-server; .ci/run does)`);
}

(redisReachable ? describe : describe.skip)('Rate limits in Redis (REDIS_URL): shared by instances', () => {
  let redis: Redis;
  const prefixes: string[] = [];
  /** A key prefix of its own per test: runs on both databases (and reruns) never see each other's counts. */
  const env = (limits: Record<string, string>) => {
    const prefix = `test:ratelimit:${randomUUID()}:`;
    prefixes.push(prefix);
    return { REDIS_URL, RATE_LIMIT_KEY_PREFIX: prefix, ...limits };
  };
  const keysOf = async (prefix: string) => {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      keys.push(...found);
    } while (cursor !== '0');
    return keys;
  };

  beforeAll(() => {
    redis = new Redis(REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    for (const prefix of prefixes) {
      const keys = await keysOf(prefix);
      if (keys.length) await redis.del(...keys);
    }
    await redis?.quit();
  });

  it('two instances on one database share one count per credential', async () => {
    const shared = env({ RATE_LIMIT_PER_MINUTE: '4' });
    const t1 = await startTestApp(shared);
    const t2 = await startTestApp(shared, { shareDatabaseWith: t1 });
    try {
      const [user, other] = [await t1.merchantUser(), await t1.merchantUser()];
      for (const t of [t1, t2, t1, t2]) expect((await read(t, user)).status).toBe(404);
      expectTooMany(await read(t1, user), /credentials.*4 per minute/);
      expectTooMany(await read(t2, user), /credentials/);
      expect((await read(t2, other)).status).toBe(404);

      // The counters: hashed keys under the prefix (no username in clear), expiring with the window.
      const keys = await keysOf(shared.RATE_LIMIT_KEY_PREFIX);
      expect(keys).toHaveLength(2);
      for (const key of keys) {
        expect(key).toMatch(new RegExp(`^${shared.RATE_LIMIT_KEY_PREFIX}credential:[\\w-]{32}$`));
        expect(key).not.toContain(user.username);
        const ttl = await redis.pttl(key);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(60_000);
      }
      expect((await Promise.all(keys.map((key) => redis.get(key)))).map(Number).sort()).toEqual([1, 6]);
    } finally {
      await t2.close();
      await t1.close();
    }
  });

  it('two instances share the per-IP count, and Retry-After follows the shared window', async () => {
    const shared = env({ RATE_LIMIT_IP_PER_MINUTE: '3' });
    const t1 = await startTestApp(shared);
    const t2 = await startTestApp(shared, { shareDatabaseWith: t1 });
    try {
      for (const t of [t1, t2, t2]) expect((await t.http().get(SESSION)).status).toBe(401);
      const refused = await t1.http().get(SESSION);
      expectTooMany(refused, /IP address/);
      const [key] = await keysOf(shared.RATE_LIMIT_KEY_PREFIX);
      expect(Number(refused.headers['retry-after'])).toBe(Math.ceil((await redis.pttl(key)) / 1000) || 1);
    } finally {
      await t2.close();
      await t1.close();
    }
  });

  it('a count left without expiry (a crashed writer) gets one, so it cannot block forever', async () => {
    const limits = env({ RATE_LIMIT_IP_PER_MINUTE: '1000' });
    const t = await startTestApp(limits);
    try {
      expect((await t.http().get(SESSION)).status).toBe(401);
      const [key] = await keysOf(limits.RATE_LIMIT_KEY_PREFIX);
      await redis.persist(key);
      expect(await redis.pttl(key)).toBe(-1);
      expect((await t.http().get(SESSION)).status).toBe(401);
      expect(await redis.pttl(key)).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
  });

});

describe('Rate limits: Redis unreachable', () => {
  it('lets requests through (fail open) when Redis does not answer', async () => {
    const started = Date.now();
    const t = await startTestApp({ REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_PER_MINUTE: '1', RATE_LIMIT_IP_PER_MINUTE: '1' });
    try {
      expect(Date.now() - started).toBeLessThan(10_000);
      const user = await t.merchantUser();
      for (let i = 0; i < 3; i++) expect((await read(t, user)).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
