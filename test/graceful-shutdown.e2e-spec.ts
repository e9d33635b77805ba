import { ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/common/database/data-source-options';
import { AppConfig } from '../src/common/config/app-config';
import { sessionBody } from './setup/factories';
import { createTestDatabase, TestDatabase } from './setup/test-database';
import { serviceNodeArgs } from './setup/service-command';

const ROOT = join(__dirname, '..');

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

describe('Graceful shutdown: SIGTERM under load loses no acknowledged request', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let service: ChildProcess;
  let origin: string;
  let auth: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const port = await freePort();
    env = {
      ...(process.env as Record<string, string>),
      DATABASE_URL: database.url,
      SECRETS_KEY_FILE: join(database.dir, 'secrets.key'),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      APP_ENV: 'sandbox',
    };
    const cli = (...args: string[]) => promisify(execFile)('node', [join(ROOT, 'scripts/cli.js'), ...args], { cwd: ROOT, env }).then((r) => JSON.parse(r.stdout));
    const merchant = await cli('merchant', 'create', '--name', 'Shutdown shop');
    await cli('user', 'create', '--username', 'shutdown', '--password', 'shutdown-password', '--merchant', merchant.MerchantId);
    auth = `Basic ${Buffer.from('shutdown:shutdown-password').toString('base64')}`;

    service = spawn('node', serviceNodeArgs(), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    origin = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 120; i++) {
      if (await fetch(`${origin}/openapi.json`).then((r) => r.ok, () => false)) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error('service did not start');
  }, 60_000);

  afterAll(async () => {
    if (service.exitCode === null) service.kill('SIGKILL');
    await database.drop();
  });

  it('finishes what it started, refuses nothing with a 5xx, exits 0, and every 201 is stored', async () => {
    const acknowledged: string[] = [];
    const statuses: number[] = [];
    const networkErrors: string[] = [];
    let running = true;

    const worker = async () => {
      while (running) {
        try {
          const res = await fetch(`${origin}/v2.22/session`, {
            method: 'POST',
            headers: { Authorization: auth, 'Content-Type': 'application/json' },
            body: JSON.stringify(sessionBody()),
          });
          statuses.push(res.status);
          const body = await res.json();
          if (res.status === 201) acknowledged.push(body.SessionId);
        } catch (error) {
          // Refused or reset after the service stopped listening: never acknowledged.
          networkErrors.push(String((error as { cause?: { code?: string } }).cause?.code ?? error));
          if (service.exitCode !== null) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    };

    const exited = new Promise<number | null>((resolve) => service.once('exit', (code) => resolve(code)));
    const workers = Array.from({ length: 8 }, worker);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const ackBeforeSignal = acknowledged.length;
    service.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 20_000))]);
    running = false;
    await Promise.all(workers);

    expect(code).toBe(0);
    expect(ackBeforeSignal).toBeGreaterThan(0);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect(statuses.every((status) => status === 201)).toBe(true);

    // Every acknowledged session is in the database, exactly once.
    const config = AppConfig.fromEnvironment({ DATABASE_URL: database.url, SECRETS_KEY_FILE: env.SECRETS_KEY_FILE });
    const dataSource = await new DataSource({ ...(await dataSourceOptions(config.database)), migrationsRun: false }).initialize();
    try {
      const rows: { id: string }[] = await dataSource.query('SELECT id FROM payment_session');
      const stored = new Set(rows.map((row) => row.id));
      expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
      expect(new Set(acknowledged).size).toBe(acknowledged.length);
    } finally {
      await dataSource.destroy();
    }
  }, 60_000);
});
