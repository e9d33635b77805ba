import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';

declare const TEST_DB_KIND: 'sqlite' | 'mysql';

export interface TestDatabase {
  kind: 'sqlite' | 'mysql';
  url: string;
  /** A temporary folder of this test file's own (key files, certificates). */
  dir: string;
  drop(): Promise<void>;
}

/** A fresh, empty database for one test file: a temporary SQLite file, or a new MariaDB database. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'payments-test-'));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  if (TEST_DB_KIND === 'sqlite') {
    return { kind: 'sqlite', url: `sqlite:${join(dir, 'test.sqlite')}`, dir, drop: async () => removeDir() };
  }
  const server = new URL(process.env.TEST_MYSQL_URL!);
  const name = `pt_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = await createConnection({ uri: server.toString() });
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  server.pathname = `/${name}`;
  return {
    kind: 'mysql',
    url: server.toString(),
    dir,
    drop: async () => {
      removeDir();
      const connection = await createConnection({ uri: process.env.TEST_MYSQL_URL! });
      await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await connection.end();
    },
  };
}
