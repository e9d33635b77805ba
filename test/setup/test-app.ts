import { INestApplication } from '@nestjs/common';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory';
import { MerchantService } from '../../src/auth/merchant.service';
import { UserService } from '../../src/auth/user.service';
import { AppConfig } from '../../src/common/config/app-config';
import { takeTurns } from './sqlite-turns';
import { createTestDatabase, TestDatabase } from './test-database';

export interface Credentials {
  username: string;
  password: string;
  merchantId: string | null;
}

export interface TestApp {
  app: INestApplication;
  config: AppConfig;
  database: TestDatabase;
  /** The environment the app was configured from: give it to the command line to reach the same data. */
  env: Record<string, string>;
  dataSource: DataSource;
  http: () => ReturnType<typeof request>;
  /** A new merchant with one user of the given role. */
  merchantUser(role?: 'merchant' | 'readonly'): Promise<Credentials>;
  /** Another user of an existing merchant, or an admin when merchantId is null. */
  user(merchantId: string | null, role: 'merchant' | 'readonly' | 'admin'): Promise<Credentials>;
  close(): Promise<void>;
}

export interface StartOptions {
  /**
   * Boots another instance on that app's database and secrets key, as a second server would be.
   * Only the first instance drops the database: close this one before it.
   */
  shareDatabaseWith?: TestApp;
}

let counter = 0;

/** Boots the whole application on a fresh database of the kind this Jest project tests. */
export async function startTestApp(env: Record<string, string> = {}, options: StartOptions = {}): Promise<TestApp> {
  const shared = options.shareDatabaseWith;
  const database = shared?.database ?? (await createTestDatabase());
  const appEnv: Record<string, string> = {
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    DB_POOL_SIZE: '10',
    ...(shared ? secretsKeyOf(shared.env) : env.SECRETS_KEY ? {} : { SECRETS_KEY_FILE: join(database.dir, 'secrets.key') }),
    ...env,
    DATABASE_URL: database.url,
  };
  const config = AppConfig.fromEnvironment(appEnv);
  if (shared && database.kind === 'sqlite') takeTurns(database, shared.app);
  const app = await createApp(config);
  if (shared && database.kind === 'sqlite') takeTurns(database, app);
  const server = app.getHttpServer();

  const user: TestApp['user'] = async (merchantId, role) => {
    const username = `user${++counter}-${Math.random().toString(36).slice(2, 8)}`;
    const password = `pw-${Math.random().toString(36).slice(2)}`;
    await app.get(UserService).create({ username, password, merchantId: merchantId ?? undefined, role });
    return { username, password, merchantId };
  };

  return {
    app,
    config,
    database,
    env: appEnv,
    dataSource: app.get(DataSource),
    http: () => request(server),
    user,
    merchantUser: async (role = 'merchant') => {
      const { merchant } = await app.get(MerchantService).create({ name: `Merchant ${++counter}` });
      return user(merchant.id, role);
    },
    close: async () => {
      await app.close();
      if (!shared) await database.drop();
    },
  };
}

/** The variables that locate the key sealing signing secrets: every instance needs the same. */
function secretsKeyOf(env: Record<string, string>): Record<string, string> {
  const names = ['SECRETS_KEY', 'SECRETS_KEY_PREVIOUS', 'SECRETS_KEY_FILE'].filter((name) => env[name] !== undefined);
  return Object.fromEntries(names.map((name) => [name, env[name]]));
}
