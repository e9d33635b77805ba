import { Env, validateEnv } from './env';

export type DatabaseConfig =
  | { type: 'sqlite'; path: string }
  | { type: 'mysql'; url: string; poolSize: number };

/** Typed configuration built once from the validated environment. */
export class AppConfig {
  readonly port: number;
  readonly host: string | undefined;
  readonly environment: 'sandbox' | 'production';
  readonly publicUrl: string;
  readonly logLevel: string;
  readonly apiVersions: string[];
  readonly currentApiVersion: string;
  readonly database: DatabaseConfig;
  readonly sessionTtlSeconds: number;
  readonly credentialCacheTtlSeconds: number;
  readonly bodyLimit: string;
  readonly idempotencyTtlSeconds: number;

  constructor(env: Env) {
    this.port = env.PORT ?? 3000;
    this.host = env.HOST;
    this.environment = env.APP_ENV ?? 'sandbox';
    this.publicUrl = (env.PUBLIC_URL ?? `http://localhost:${this.port}`).replace(/\/+$/, '');
    this.logLevel = env.LOG_LEVEL ?? 'info';
    this.apiVersions = (env.API_VERSIONS ?? 'v2.22').split(',');
    this.currentApiVersion = this.apiVersions[this.apiVersions.length - 1];
    this.database = parseDatabaseUrl(env.DATABASE_URL ?? 'sqlite:data/payments.sqlite', env.DB_POOL_SIZE ?? 32);
    this.sessionTtlSeconds = env.SESSION_TTL_SECONDS ?? 24 * 3600;
    this.credentialCacheTtlSeconds = env.CREDENTIAL_CACHE_TTL_SECONDS ?? 60;
    this.bodyLimit = env.BODY_LIMIT ?? '100kb';
    this.idempotencyTtlSeconds = env.IDEMPOTENCY_TTL_SECONDS ?? 24 * 3600;
  }

  get isSandbox(): boolean {
    return this.environment === 'sandbox';
  }

  static fromEnvironment(raw: Record<string, string | undefined> = process.env): AppConfig {
    return new AppConfig(validateEnv(raw));
  }
}

function parseDatabaseUrl(url: string, poolSize: number): DatabaseConfig {
  if (url.startsWith('sqlite:')) return { type: 'sqlite', path: url.slice('sqlite:'.length) };
  return { type: 'mysql', url, poolSize };
}
