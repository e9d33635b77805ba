import { randomBytes } from 'node:crypto';
import { AppConfig } from '../src/common/config/app-config';
import { startTestApp, TestApp } from './setup/test-app';

const SESSION = '/v2.22/session/3f2b8a9e-4c1d-4e7a-9b6f-1a2b3c4d5e6f';

/** Every source in a CSP header, e.g. 'self', data:, https://cdn.example. */
function cspSources(header: string): string[] {
  return header
    .split(';')
    .map((directive) => directive.trim().split(/\s+/).slice(1))
    .flat();
}

describe('Operations: health, security headers, CORS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('health', () => {
    it('GET /health/live answers 200 without credentials or version', async () => {
      const res = await t.http().get('/health/live');
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('ok');
      expect(res.headers['cache-control']).toMatch(/no-cache|no-store/);
    });

    it('GET /health/ready is 200 when the database answers and every migration has run', async () => {
      const res = await t.http().get('/health/ready');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        status: 'ok',
        info: { database: { status: 'up' }, migrations: { status: 'up', applied: t.dataSource.migrations.length } },
      });
    });

    it('the probes are not versioned and not in the OpenAPI document', async () => {
      expect((await t.http().get('/v2.22/health/live')).status).toBe(404);
      const doc = await t.http().get('/openapi.json');
      expect(Object.keys(doc.body.paths).filter((path) => path.includes('health'))).toEqual([]);
    });

    describe('on an instance whose database is in trouble', () => {
      let broken: TestApp;
      beforeAll(async () => {
        broken = await startTestApp();
      });
      afterAll(async () => {
        await broken?.close();
      });

      it('a pending migration makes ready 503 (live stays 200) until it is applied', async () => {
        const [last] = await broken.dataSource.query('SELECT id, timestamp, name FROM migrations ORDER BY timestamp DESC LIMIT 1');
        await broken.dataSource.query('DELETE FROM migrations WHERE id = ?', [last.id]);
        try {
          const res = await broken.http().get('/health/ready');
          expect(res.status).toBe(503);
          expect(res.body).toMatchObject({
            status: 'error',
            info: { database: { status: 'up' } },
            error: { migrations: { status: 'down', pending: [last.name] } },
          });
          expect((await broken.http().get('/health/live')).status).toBe(200);
        } finally {
          await broken.dataSource.query('INSERT INTO migrations (id, timestamp, name) VALUES (?, ?, ?)', [last.id, last.timestamp, last.name]);
        }
        expect((await broken.http().get('/health/ready')).status).toBe(200);
      });

      it('an unreachable database makes ready 503 (live stays 200)', async () => {
        await broken.dataSource.destroy();
        try {
          const res = await broken.http().get('/health/ready');
          expect(res.status).toBe(503);
          expect(res.body).toMatchObject({ status: 'error', error: { database: { status: 'down' }, migrations: { status: 'down' } } });
          expect((await broken.http().get('/health/live')).status).toBe(200);
        } finally {
          await broken.dataSource.initialize();
        }
        expect((await broken.http().get('/health/ready')).status).toBe(200);
      });
    });
  });

  describe('security headers (helmet)', () => {
    const expectHelmet = (headers: Record<string, string>) => {
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['content-security-policy']).toContain("default-src 'self'");
      expect(headers['x-powered-by']).toBeUndefined();
      expect(headers['referrer-policy']).toBe('no-referrer');
      // Sandbox over plain HTTP: no HSTS (transport-security.ts sends it in production only).
      expect(headers['strict-transport-security']).toBeUndefined();
    };

    it('are on API responses, errors included', async () => {
      const res = await t.http().get(SESSION);
      expect(res.status).toBe(401);
      expect(res.body.Code).toBe('AUTHENTICATION_REQUIRED');
      expectHelmet(res.headers);
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expectHelmet((await t.http().get('/health/live')).headers);
    });

    it('let Swagger UI at /docs load from this origin only', async () => {
      const page = await t.http().get('/docs/');
      expect(page.status).toBe(200);
      expect(page.text).toContain('swagger-ui');
      expectHelmet(page.headers);
      const csp = page.headers['content-security-policy'];
      // Only this origin, inline styles (Swagger UI's page and components) and data: images/fonts.
      expect(new Set(cspSources(csp))).toEqual(new Set(["'self'", "'none'", "'unsafe-inline'", 'data:']));
      expect(csp).toMatch(/script-src 'self'(;|$)/); // no inline or eval'd script
      expect(csp).not.toMatch(/https?:|\*/);

      // Every script and stylesheet the page names is a file of this service, and it is served.
      const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
      expect(assets.length).toBeGreaterThan(0);
      expect(page.text).not.toMatch(/<script>(?!\s*<\/script>)/); // no inline script body
      for (const asset of assets) {
        expect(asset).not.toMatch(/^(https?:)?\/\//);
        const res = await t.http().get(`/docs/${asset.replace(/^\.\//, '')}`);
        expect([asset, res.status]).toEqual([asset, 200]);
        expect(res.headers['x-content-type-options']).toBe('nosniff');
      }
    });

    it('let merchant pages embed the badge images and the fingerprint frame (no same-origin CORP, no X-Frame-Options)', async () => {
      const res = await t.http().get('/assets/badge-light.svg');
      expect(res.status).toBe(200);
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      // The fingerprint frame is added to merchant pages by the fingerprint script.
      const frame = await t.http().get('/fingerprint/3f2b8a9e-4c1d-4e7a-9b6f-1a2b3c4d5e6f');
      expect(frame.headers['x-frame-options']).toBeUndefined();
      expect(frame.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect((await t.http().get(SESSION)).headers['cross-origin-resource-policy']).toBe('same-origin');
    });

    it('in production, HSTS comes once (from the transport layer) and the CSP upgrades insecure requests', async () => {
      const prod = await startTestApp({ APP_ENV: 'production', TRUST_PROXY: '1', SECRETS_KEY: randomBytes(32).toString('base64') });
      try {
        const res = await prod.http().get('/health/live').set('X-Forwarded-Proto', 'https');
        expect(res.status).toBe(200);
        expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
        expect(res.headers['content-security-policy']).toContain('upgrade-insecure-requests');
        const refused = await prod.http().get('/health/live');
        expect(refused.body.Code).toBe('HTTPS_REQUIRED');
        expect(refused.headers['x-content-type-options']).toBe('nosniff');
      } finally {
        await prod.close();
      }
    });
  });

  describe('CORS', () => {
    const preflight = (app: TestApp, origin: string) =>
      app
        .http()
        .options('/v2.22/session')
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization,content-type');

    it('is closed by default: no Access-Control-* headers for any origin', async () => {
      const res = await preflight(t, 'https://shop.example');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-allow-methods']).toBeUndefined();
      const get = await t.http().get(SESSION).set('Origin', 'https://shop.example');
      expect(get.headers['access-control-allow-origin']).toBeUndefined();
    });

    describe('with CORS_ORIGINS set', () => {
      let open: TestApp;
      beforeAll(async () => {
        open = await startTestApp({ CORS_ORIGINS: 'https://shop.example,http://localhost:8080' });
      });
      afterAll(async () => {
        await open?.close();
      });

      it('allows exactly the listed origins', async () => {
        const res = await preflight(open, 'https://shop.example');
        expect(res.status).toBe(204);
        expect(res.headers['access-control-allow-origin']).toBe('https://shop.example');
        expect(res.headers['access-control-allow-methods']).toContain('POST');
        expect(res.headers['access-control-allow-headers'].toLowerCase()).toContain('authorization');
        expect(res.headers['access-control-allow-credentials']).toBeUndefined();

        const get = await open.http().get(SESSION).set('Origin', 'http://localhost:8080');
        expect(get.status).toBe(401);
        expect(get.headers['access-control-allow-origin']).toBe('http://localhost:8080');
      });

      it.each(['https://evil.example', 'https://shop.example.evil.example', 'http://shop.example', 'null'])(
        'gives another origin (%s) no Access-Control-Allow-Origin',
        async (origin) => {
          const res = await preflight(open, origin);
          expect(res.headers['access-control-allow-origin']).toBeUndefined();
        },
      );
    });

    it.each(['*', 'https://shop.example/', 'https://shop.example/path', 'ftp://shop.example', 'shop.example', 'https://a.example,,https://b.example'])(
      'CORS_ORIGINS=%s stops the start with a message naming it',
      (value) => {
        expect(() => AppConfig.fromEnvironment({ CORS_ORIGINS: value })).toThrow(/CORS_ORIGINS/);
      },
    );

    it('CORS_ORIGINS is normalised as a browser sends Origin', () => {
      expect(AppConfig.fromEnvironment({ CORS_ORIGINS: 'https://Shop.Example:443,http://localhost:8080' }).corsOrigins).toEqual([
        'https://shop.example',
        'http://localhost:8080',
      ]);
    });
  });
});
