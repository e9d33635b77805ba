import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { DataSourceOptions } from 'typeorm';
import { DatabaseConfig } from '../config/app-config';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/** TypeORM options for either database; migrations, never synchronize. */
export async function dataSourceOptions(database: DatabaseConfig): Promise<DataSourceOptions> {
  const common = {
    entities: ENTITIES,
    migrations: MIGRATIONS,
    // Run after initialize, under a lock between instances (run-migrations.ts), not by TypeORM itself.
    migrationsRun: false,
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    logging: false,
  };
  if (database.type === 'sqlite') {
    if (database.path !== ':memory:') mkdirSync(dirname(database.path), { recursive: true });
    return {
      ...common,
      type: 'better-sqlite3',
      database: database.path,
      // WAL lets readers run beside the one writer; busy_timeout waits instead of failing on a lock.
      prepareDatabase: (db: { pragma(sql: string): unknown }) => {
        db.pragma('journal_mode = WAL');
        db.pragma('busy_timeout = 5000');
        db.pragma('foreign_keys = ON');
      },
    };
  }
  const flavour = await mysqlFlavour(database.url);
  return {
    ...common,
    type: flavour,
    url: database.url,
    timezone: 'Z',
    // The connection's own collation (mysql2 knows a fixed list); columns use the database's exact one.
    charset: 'utf8mb4_bin',
    supportBigNumbers: true,
    poolSize: database.poolSize,
    extra: { connectionLimit: database.poolSize },
  };
}

/**
 * mysql:// may point at MySQL or MariaDB. TypeORM reads defaults and nullability differently for each,
 * and only by the configured type, so ask the server which one it is.
 */
async function mysqlFlavour(url: string): Promise<'mysql' | 'mariadb'> {
  const connection = await createConnection({ uri: url });
  try {
    const [rows] = await connection.query('SELECT VERSION() AS version');
    return /mariadb/i.test((rows as { version: string }[])[0].version) ? 'mariadb' : 'mysql';
  } finally {
    await connection.end();
  }
}
