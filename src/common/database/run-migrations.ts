import { Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource, DataSourceOptions, Migration, MigrationExecutor, QueryRunner } from 'typeorm';

export interface MigrationLockOptions {
  /** How long to wait for another instance's migrations before the start fails. */
  timeoutSeconds?: number;
  /** Told once when another instance holds the lock, before waiting for it. */
  onWait?: (message: string) => void;
}

/** Another instance held the migration lock for the whole timeout: not retried, the start fails. */
export class MigrationLockTimeoutError extends Error {}

const DEFAULT_TIMEOUT_SECONDS = 120;

/** TypeORM's options and how to take the lock (TypeORM ignores the extra field, as it does Nest's). */
export type MigratedDataSourceOptions = DataSourceOptions & { migrationLock?: MigrationLockOptions };

/** Initializes the data source and brings its schema up to date; what the app and the CLI start with. */
export async function initializeMigrated(options: MigratedDataSourceOptions): Promise<DataSource> {
  const dataSource = await new DataSource(options).initialize();
  try {
    await runMigrationsLocked(dataSource, options.migrationLock);
    return dataSource;
  } catch (error) {
    await dataSource.destroy().catch(() => undefined);
    throw error;
  }
}

/**
 * Runs the pending migrations under a lock every instance of the database takes first, so that instances
 * starting together run each migration once: the others wait, then find nothing pending.
 * TypeORM reads the migrations table before any transaction of its own, and MySQL DDL commits implicitly,
 * so transactions alone let two instances both run the same migration.
 */
export async function runMigrationsLocked(dataSource: DataSource, options: MigrationLockOptions = {}): Promise<Migration[]> {
  const timeoutSeconds = options.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  const onWait = options.onWait ?? ((message: string) => new Logger('Migrations').log(message));
  // One connection for the lock and the migrations: a MySQL named lock belongs to its session.
  const queryRunner = dataSource.createQueryRunner();
  const executor = new MigrationExecutor(dataSource, queryRunner);
  try {
    if (dataSource.options.type === 'better-sqlite3') {
      // Every migration inside the one write transaction that is the lock (SQLite DDL is transactional);
      // so a migration must not ask for a transaction of its own (`transaction = true`).
      executor.transaction = 'none';
      return await withSqliteWriteLock(queryRunner, timeoutSeconds, onWait, () => executor.executePendingMigrations());
    }
    executor.transaction = 'each';
    return await withNamedLock(queryRunner, timeoutSeconds, onWait, () => executor.executePendingMigrations());
  } finally {
    await queryRunner.release();
  }
}

/** MySQL/MariaDB: GET_LOCK, named after the database so that databases on one server do not wait for each other. */
async function withNamedLock<T>(queryRunner: QueryRunner, timeoutSeconds: number, onWait: (message: string) => void, work: () => Promise<T>): Promise<T> {
  const [{ name: database }] = (await queryRunner.query('SELECT DATABASE() AS name')) as { name: string }[];
  const name = lockName(database);
  if (!(await getLock(queryRunner, name, 0))) {
    onWait(`Waiting up to ${timeoutSeconds} s for another instance to finish the migrations (MySQL lock "${name}")`);
    if (!(await getLock(queryRunner, name, timeoutSeconds))) {
      throw new MigrationLockTimeoutError(
        `Another instance held the migration lock "${name}" for ${timeoutSeconds} s: not starting. ` +
          `Check for a stuck migration (SELECT IS_USED_LOCK('${name}') names its connection).`,
      );
    }
  }
  try {
    return await work();
  } finally {
    // A lost connection took its lock with it; a failed release must not hide the migration's own error.
    await queryRunner.query('DO RELEASE_LOCK(?)', [name]).catch(() => undefined);
  }
}

async function getLock(queryRunner: QueryRunner, name: string, timeoutSeconds: number): Promise<boolean> {
  const [{ acquired }] = (await queryRunner.query('SELECT GET_LOCK(?, ?) AS acquired', [name, timeoutSeconds])) as { acquired: unknown }[];
  if (acquired === null) throw new Error(`GET_LOCK("${name}") failed (the server returned NULL)`);
  return Number(acquired) === 1;
}

/** Lock names are at most 64 characters; a database name may itself be 64. */
function lockName(database: string): string {
  const name = `migrations:${database}`;
  return name.length <= 64 ? name : `migrations:${createHash('sha256').update(database).digest('hex').slice(0, 53)}`;
}

/**
 * SQLite: BEGIN IMMEDIATE takes the database's one write lock before the migrations table is read.
 * Polled without the busy timeout: better-sqlite3 would wait synchronously, freezing the event loop.
 */
async function withSqliteWriteLock<T>(queryRunner: QueryRunner, timeoutSeconds: number, onWait: (message: string) => void, work: () => Promise<T>): Promise<T> {
  // TypeORM's own step before migrating (foreign keys off while tables are rebuilt); a no-op inside a transaction.
  await queryRunner.beforeMigration();
  try {
    await beginImmediate(queryRunner, timeoutSeconds, onWait);
    let result: T;
    try {
      result = await work();
    } catch (error) {
      await queryRunner.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    await queryRunner.query('COMMIT');
    return result;
  } finally {
    await queryRunner.afterMigration();
  }
}

async function beginImmediate(queryRunner: QueryRunner, timeoutSeconds: number, onWait: (message: string) => void): Promise<void> {
  const [{ timeout: busyTimeout }] = (await queryRunner.query('PRAGMA busy_timeout')) as { timeout: number }[];
  await queryRunner.query('PRAGMA busy_timeout = 0');
  try {
    const deadline = Date.now() + timeoutSeconds * 1000;
    for (let waited = false; ; waited = true) {
      try {
        await queryRunner.query('BEGIN IMMEDIATE');
        return;
      } catch (error) {
        if ((error as { driverError?: { code?: string } }).driverError?.code !== 'SQLITE_BUSY') throw error;
      }
      // Any writer holds this lock, if only for milliseconds; one that migrates holds it until it is done.
      if (!waited) onWait(`Waiting up to ${timeoutSeconds} s for the SQLite write lock (another instance is migrating or writing)`);
      if (Date.now() >= deadline) {
        throw new MigrationLockTimeoutError(`Another process held the SQLite database's write lock for ${timeoutSeconds} s: not starting.`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await queryRunner.query(`PRAGMA busy_timeout = ${Number(busyTimeout)}`);
  }
}
