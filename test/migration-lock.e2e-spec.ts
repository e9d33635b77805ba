import { randomBytes } from 'node:crypto';
import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { AppConfig } from '../src/common/config/app-config';
import { dataSourceOptions } from '../src/common/database/data-source-options';
import { MIGRATIONS } from '../src/common/database/migrations';
import { MigrationLockTimeoutError, runMigrationsLocked } from '../src/common/database/run-migrations';
import { errorLines, ServiceProcess, startServiceProcess } from './setup/service-process';
import { createTestDatabase, TestDatabase } from './setup/test-database';

const PROBE = 'LockProbe1999999999999';
const WAIT_LINE = 'Waiting up to';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !condition(); await sleep(50)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

/** A migration that stays inside up() (so its instance holds the lock) until the test opens the gate. */
function gatedMigration(options: { fail?: boolean } = {}) {
  let entered!: () => void;
  let open!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  const gate = new Promise<void>((resolve) => (open = resolve));
  class LockProbe implements MigrationInterface {
    name = PROBE;
    async up(queryRunner: QueryRunner): Promise<void> {
      entered();
      await gate;
      if (options.fail) throw new Error('probe migration failed');
      await queryRunner.query('CREATE TABLE lock_probe (id INT)');
    }
    async down(): Promise<void> {}
  }
  return { migration: LockProbe, inside, open };
}

/** A data source on that database with only the given migrations, not yet migrated. */
async function dataSourceWith(database: TestDatabase, migrations: (new () => MigrationInterface)[]): Promise<DataSource> {
  const config = AppConfig.fromEnvironment({ DATABASE_URL: database.url, DB_POOL_SIZE: '2' });
  return new DataSource({ ...(await dataSourceOptions(config.database)), migrations }).initialize();
}

const migrationNames = async (dataSource: DataSource) =>
  ((await dataSource.query('SELECT name FROM migrations')) as { name: string }[]).map((row) => row.name);

describe('Migrations under a lock between instances', () => {
  describe('runMigrationsLocked', () => {
    let database: TestDatabase;
    const sources: DataSource[] = [];
    const source = async (db: TestDatabase, migrations: (new () => MigrationInterface)[]) => {
      const dataSource = await dataSourceWith(db, migrations);
      sources.push(dataSource);
      return dataSource;
    };

    beforeEach(async () => {
      database = await createTestDatabase();
    });

    afterEach(async () => {
      await Promise.all(sources.splice(0).map((dataSource) => dataSource.destroy()));
      await database.drop();
    });

    it('the second instance waits until the first has finished, then finds nothing pending', async () => {
      const probe = gatedMigration();
      const [a, b] = [await source(database, [probe.migration]), await source(database, [probe.migration])];
      const first = runMigrationsLocked(a, { onWait: () => undefined });
      await probe.inside;
      const waits: string[] = [];
      let secondDone = false;
      const second = runMigrationsLocked(b, { onWait: (message) => waits.push(message) }).finally(() => (secondDone = true));
      await until(() => waits.length > 0, 10_000, 'the second instance to wait');
      await sleep(300);
      expect(secondDone).toBe(false);

      probe.open();
      expect((await first).map((migration) => migration.name)).toEqual([PROBE]);
      expect(await second).toEqual([]);
      expect(waits).toEqual([expect.stringContaining(WAIT_LINE)]);
      expect(await migrationNames(a)).toEqual([PROBE]);
    });

    it('a lock held past the timeout fails the start with a clear message', async () => {
      const probe = gatedMigration();
      const [a, b] = [await source(database, [probe.migration]), await source(database, [probe.migration])];
      const first = runMigrationsLocked(a, { onWait: () => undefined });
      await probe.inside;
      const started = Date.now();
      const error = await runMigrationsLocked(b, { timeoutSeconds: 1, onWait: () => undefined }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MigrationLockTimeoutError);
      expect((error as Error).message).toMatch(/for 1 s: not starting/);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      probe.open();
      await first;
      expect(await migrationNames(a)).toEqual([PROBE]);
    });

    it('a failing migration releases the lock', async () => {
      const failing = gatedMigration({ fail: true });
      const a = await source(database, [failing.migration]);
      const first = runMigrationsLocked(a, { onWait: () => undefined });
      failing.open();
      const quiet = jest.spyOn(console, 'log').mockImplementation(() => undefined); // TypeORM reports the failure there
      await expect(first).rejects.toThrow('probe migration failed').finally(() => quiet.mockRestore());

      const working = gatedMigration();
      working.open();
      const waits: string[] = [];
      const b = await source(database, [working.migration]);
      expect(await runMigrationsLocked(b, { timeoutSeconds: 1, onWait: (message) => waits.push(message) })).toHaveLength(1);
      expect(waits).toEqual([]);
    });

    it('another database is not held up by the lock', async () => {
      const other = await createTestDatabase();
      try {
        const probe = gatedMigration();
        const first = runMigrationsLocked(await source(database, [probe.migration]), { onWait: () => undefined });
        await probe.inside;
        const elsewhere = gatedMigration();
        elsewhere.open();
        const waits: string[] = [];
        const b = await source(other, [elsewhere.migration]);
        expect(await runMigrationsLocked(b, { timeoutSeconds: 1, onWait: (message) => waits.push(message) })).toHaveLength(1);
        expect(waits).toEqual([]);
        probe.open();
        await first;
      } finally {
        await Promise.all(sources.splice(0).map((dataSource) => dataSource.destroy()));
        await other.drop();
      }
    });
  });

  describe('two service processes started together on an empty database', () => {
    let database: TestDatabase;
    let services: ServiceProcess[] = [];
    let holder: DataSource | null = null;

    beforeEach(async () => {
      database = await createTestDatabase();
    });

    afterEach(async () => {
      await Promise.all(services.map((service) => service.stop()));
      services = [];
      await holder?.destroy();
      holder = null;
      await database.drop();
    });

    const startTwo = async () => {
      // Production: nothing but the migrations is written at start (the sandbox also seeds a demo account).
      const env = { DATABASE_URL: database.url, SECRETS_KEY: randomBytes(32).toString('base64'), APP_ENV: 'production', TRUST_PROXY: '1' };
      services = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
      return services;
    };

    const expectEachMigrationOnce = async () => {
      const check = await dataSourceWith(database, []);
      try {
        const names = (await migrationNames(check)).filter((name) => name !== PROBE);
        expect(names).toHaveLength(MIGRATIONS.length);
        expect(new Set(names).size).toBe(names.length);
      } finally {
        await check.destroy();
      }
    };

    it('both become ready and each migration runs once', async () => {
      const [one, two] = await startTwo();
      await Promise.all([one.ready(), two.ready()]);
      await expectEachMigrationOnce();
      // Without the lock the loser fails ("Table 'merchant' already exists") and Nest's retry hides it.
      expect(errorLines(one.output())).toEqual([]);
      expect(errorLines(two.output())).toEqual([]);
    }, 120_000);

    it('while another holds the lock, both wait for it, then one migrates and the other finds nothing pending', async () => {
      // This test holds the lock first, so that both processes certainly meet it.
      const probe = gatedMigration();
      holder = await dataSourceWith(database, [probe.migration]);
      const holding = runMigrationsLocked(holder, { onWait: () => undefined });
      await probe.inside;

      const [one, two] = await startTwo();
      await until(() => one.output().includes(WAIT_LINE) && two.output().includes(WAIT_LINE), 60_000, 'both processes to log the wait line').catch((error: Error) => {
        throw new Error(`${error.message}\n--- one:\n${one.output()}\n--- two:\n${two.output()}`);
      });
      expect(one.exitCode()).toBeNull();
      expect(two.exitCode()).toBeNull();
      probe.open();
      await holding;

      await Promise.all([one.ready(), two.ready()]);
      await expectEachMigrationOnce();
      expect(errorLines(one.output())).toEqual([]);
      expect(errorLines(two.output())).toEqual([]);
    }, 120_000);
  });
});
