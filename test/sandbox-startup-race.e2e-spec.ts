import { execFile } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { DEMO } from '../src/auth/demo-seeder';
import { AppConfig } from '../src/common/config/app-config';
import { dataSourceOptions } from '../src/common/database/data-source-options';
import { runMigrationsLocked } from '../src/common/database/run-migrations';
import { SecretBox } from '../src/common/secrets/secret-box';
import { errorLines, ServiceProcess, startServiceProcess } from './setup/service-process';
import { createTestDatabase, TestDatabase } from './setup/test-database';

const ROOT = join(__dirname, '..');
const WAIT_LINE = 'Waiting up to';
const demoAuth = `Basic ${Buffer.from(`${DEMO.username}:${DEMO.password}`).toString('base64')}`;
const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text, 'utf8').digest('base64');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean | Promise<boolean>, what: string, services: ServiceProcess[]): Promise<void> {
  for (const deadline = Date.now() + 60_000; !(await condition()); await sleep(50)) {
    const exited = services.find((service) => service.exitCode() !== null);
    if (exited || Date.now() > deadline) {
      throw new Error(`${exited ? 'a service exited' : 'timed out'} waiting for ${what}:\n${services.map((s) => s.output()).join('\n---\n')}`);
    }
  }
}

/** The secrets-key module as the service processes run it (the run's transpiled copy when there is one). */
function secretsKeyModule(): { nodeArgs: string[]; path: string } {
  const prebuilt = process.env.PAYMENTS_PREBUILT_DIR;
  const compiled = prebuilt && join(prebuilt, 'common', 'secrets', 'secrets-key.js');
  if (compiled && existsSync(compiled)) return { nodeArgs: [], path: compiled };
  return { nodeArgs: ['-r', 'ts-node/register/transpile-only'], path: join(ROOT, 'src', 'common', 'secrets', 'secrets-key.ts') };
}

/** For each key file in turn, at startAt + 100 ms × its index: the sandbox's current key, one line each. */
const LOAD_EACH = `
const [, modulePath, startAt, ...files] = process.argv;
const { loadSecretsKeys } = require(modulePath);
files.forEach((file, i) => {
  while (Date.now() < Number(startAt) + 100 * i);
  process.stdout.write(loadSecretsKeys({ isSandbox: true, secretsKey: { file } })[0].toString('base64') + '\\n');
});
`;

const sandboxEnv = (database: TestDatabase, keyFile: string) => ({
  APP_ENV: 'sandbox',
  DATABASE_URL: database.url,
  SECRETS_KEY: undefined,
  SECRETS_KEY_PREVIOUS: undefined,
  SECRETS_KEY_FILE: keyFile,
});

async function openDatabase(database: TestDatabase): Promise<DataSource> {
  const config = AppConfig.fromEnvironment({ DATABASE_URL: database.url, DB_POOL_SIZE: '2', SECRETS_KEY_FILE: join(database.dir, 'unused.key') });
  return new DataSource(await dataSourceOptions(config.database)).initialize();
}

/**
 * Migrates the empty database, then holds what every instance meets just before the demo seeding:
 * MariaDB: a gap lock on the empty merchant table, which queues each instance's insert of the demo
 * merchant until released (so both have found the database empty). SQLite: the write lock, which
 * holds the instances at their migration lock; released, they go on within one 100 ms poll.
 */
async function holdBeforeSeeding(database: TestDatabase): Promise<{ queuedInserts?: () => Promise<number>; release(): Promise<void> }> {
  const dataSource = await openDatabase(database);
  await runMigrationsLocked(dataSource, { onWait: () => undefined });
  const holder = dataSource.createQueryRunner();
  const release = async () => {
    await holder.query(database.kind === 'sqlite' ? 'ROLLBACK' : 'COMMIT');
    await holder.release();
    await dataSource.destroy();
  };
  if (database.kind === 'sqlite') {
    await holder.query('BEGIN IMMEDIATE');
    return { release };
  }
  await holder.query('START TRANSACTION');
  await holder.query('SELECT id FROM merchant WHERE id = ? FOR UPDATE', [DEMO.merchantId]);
  const queuedInserts = async () => {
    const [{ count }] = await dataSource.query(
      "SELECT COUNT(*) AS count FROM information_schema.PROCESSLIST WHERE DB = DATABASE() AND INFO LIKE 'INSERT INTO `merchant`%'",
    );
    return Number(count);
  };
  return { queuedInserts, release };
}

async function readDemoAccount(database: TestDatabase): Promise<{ merchants: number; users: string[]; secrets: string[] }> {
  const dataSource = await openDatabase(database);
  try {
    const [{ count }] = await dataSource.query('SELECT COUNT(*) AS count FROM merchant');
    const users = (await dataSource.query('SELECT username FROM app_user')) as { username: string }[];
    const secrets = (await dataSource.query('SELECT secret_sealed AS sealed FROM merchant_signing_secret')) as { sealed: string }[];
    return { merchants: Number(count), users: users.map((u) => u.username), secrets: secrets.map((s) => s.sealed) };
  } finally {
    await dataSource.destroy();
  }
}

describe('Sandbox instances started together on an empty database, without SECRETS_KEY', () => {
  let database: TestDatabase;
  let services: ServiceProcess[] = [];

  beforeEach(async () => {
    database = await createTestDatabase();
  });

  afterEach(async () => {
    await Promise.all(services.map((service) => service.stop()));
    services = [];
    await database.drop();
  });

  /** Both ready, one demo account, and both instances hold the key it is sealed with. */
  async function expectOneDemoAccountSharedByBoth(keyFile: string): Promise<void> {
    await Promise.all(services.map((service) => service.ready()));
    for (const service of services) {
      const res = await fetch(`${service.url}/v2.22/session/${randomUUID()}`, { headers: { Authorization: demoAuth } });
      expect(res.status).toBe(404); // authenticated; the session just does not exist
      expect(errorLines(service.output())).toEqual([]);
    }

    const stored = await readDemoAccount(database);
    expect(stored).toEqual({ merchants: 1, users: [DEMO.username], secrets: [expect.stringMatching(/^v1:/)] });
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const secret = new SecretBox(() => [Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64')]).open(stored.secrets[0]);

    // What either instance printed about the demo account is true: the one stored secret.
    const stated = services.flatMap((service) => [...service.output().matchAll(/SigningSecret ([\w-]+)/g)].map((match) => match[1]));
    expect(stated.length).toBeGreaterThanOrEqual(1);
    expect(new Set(stated)).toEqual(new Set([secret]));

    // Each instance opens the sealed secret with the key it loaded: a signed call verifies, both ways.
    const request = JSON.stringify({ MerchantId: DEMO.merchantId });
    for (const service of services) {
      const res = await fetch(`${service.url}/v2.22/getRates?${new URLSearchParams({ request, signature: hmac(secret, request) })}`);
      const answer = (await res.json()) as { response: string; signature: string };
      expect(res.status).toBe(200);
      expect(answer.signature).toBe(hmac(secret, answer.response));
    }
  }

  it('processes creating the key file at the same moment all end up with the one key in it', async () => {
    const files = Array.from({ length: 5 }, (_, round) => join(database.dir, `round-${round}`, 'secrets.key'));
    const { nodeArgs, path } = secretsKeyModule();
    const startAt = String(Date.now() + 1000); // once every process has loaded the module
    const outputs = await Promise.all(
      Array.from({ length: 8 }, () => promisify(execFile)('node', [...nodeArgs, '-e', LOAD_EACH, path, startAt, ...files], { cwd: ROOT }).then(({ stdout }) => stdout)),
    );
    files.forEach((file, round) => {
      const keys = outputs.map((output) => output.trim().split('\n')[round]);
      expect(new Set(keys)).toEqual(new Set([readFileSync(file, 'utf8').trim()]));
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readdirSync(join(database.dir, `round-${round}`))).toEqual(['secrets.key']); // no temporary file left
    });
  }, 60_000);

  it('two started at the same moment on a fresh database: both ready, one demo account, one key', async () => {
    const keyFile = join(database.dir, 'keys', 'secrets.key');
    services = await Promise.all([startServiceProcess(sandboxEnv(database, keyFile)), startServiceProcess(sandboxEnv(database, keyFile))]);
    await expectOneDemoAccountSharedByBoth(keyFile);
  }, 120_000);

  it('two held back just before the demo seeding, then let go together: one creates the account, the other reads it', async () => {
    const keyFile = join(database.dir, 'keys', 'secrets.key');
    const hold = await holdBeforeSeeding(database);
    try {
      services = await Promise.all([startServiceProcess(sandboxEnv(database, keyFile)), startServiceProcess(sandboxEnv(database, keyFile))]);
      const { queuedInserts } = hold;
      if (queuedInserts) await until(async () => (await queuedInserts()) === 2, 'both demo merchant inserts to queue', services);
      else await until(() => services.every((service) => service.output().includes(WAIT_LINE)), 'both to wait for the write lock', services);
    } finally {
      await hold.release();
    }
    await expectOneDemoAccountSharedByBoth(keyFile);
    if (database.kind === 'mysql') {
      // Both found the database empty and tried: one created the account, the other read it. (SQLite lets
      // them go up to one poll apart, so there the second may as well find the account made already.)
      expect(services.map((service) => service.output().match(/Empty sandbox database: (created|another instance)/)?.[1]).sort()).toEqual([
        'another instance',
        'created',
      ]);
    }
  }, 120_000);
});
