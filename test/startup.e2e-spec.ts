import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEMO } from '../src/auth/demo-seeder';
import { startTestApp } from './setup/test-app';
import { serviceNodeArgs } from './setup/service-command';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');

describe('Start-up: configuration check and sandbox seed', () => {
  it.each([
    [{ PORT: 'abc' }, /PORT="abc"/],
    [{ APP_ENV: 'staging' }, /APP_ENV="staging"/],
    [{ DATABASE_URL: 'postgres://localhost/x' }, /DATABASE_URL=/],
    [{ SESSION_TTL_SECONDS: '1' }, /SESSION_TTL_SECONDS="1"/],
  ])('a bad value (%j) stops the start with a message naming the variable', async (env, message) => {
    const result = await run('node', serviceNodeArgs(), {
      cwd: ROOT,
      env: { ...process.env, ...env },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/at .*\.ts:\d+/); // no stack trace
  }, 60_000);

  it('a sandbox start on an empty database creates the demo merchant and user', async () => {
    const t = await startTestApp();
    try {
      const res = await t.http().get('/v2.22/session/3f2b8a9e-4c1d-4e7a-9b6f-1a2b3c4d5e6f').auth(DEMO.username, DEMO.password);
      expect(res.status).toBe(404); // authenticated, the session just does not exist
      const [merchant] = await t.dataSource.query('SELECT id FROM merchant');
      expect(merchant.id).toBe(DEMO.merchantId);
    } finally {
      await t.close();
    }
  });

  it('production never creates anything by itself', async () => {
    const t = await startTestApp({ APP_ENV: 'production', TRUST_PROXY: '1', SECRETS_KEY: randomBytes(32).toString('base64') });
    try {
      const res = await t
        .http()
        .get('/v2.22/session/3f2b8a9e-4c1d-4e7a-9b6f-1a2b3c4d5e6f')
        .set('X-Forwarded-Proto', 'https')
        .auth(DEMO.username, DEMO.password);
      expect(res.status).toBe(401);
      expect(await t.dataSource.query('SELECT id FROM merchant')).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
