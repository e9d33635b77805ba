import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError, Env, validateEnv } from './env';

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
  readonly tls: { certFile: string; keyFile: string } | null;
  readonly trustProxy: boolean;
  /** Where the secrets key comes from: the variable, or a key file (created in sandbox when missing). */
  readonly secretsKey: { value: string; previous: string | null } | { file: string };
  readonly secretRotationOverlapSeconds: number;
  /** Signed Checkout requests: how far Timestamp may be from now, and whether it is required. */
  readonly checkoutReplayWindowSeconds: number;
  readonly checkoutRequireTimestamp: boolean;
  readonly merchantOfRecord: { name: string; url: string; termsUrl: string };
  /** Browser origins CORS allows, exactly as a browser sends them in Origin; empty = CORS closed. */
  readonly corsOrigins: string[];
  /** Bearer token GET /metrics requires; null = no authentication (block /metrics at the proxy). */
  readonly metricsToken: string | null;
  /** Scheduled jobs (Scheduler): whether this instance runs them, and how often it looks for due ones. */
  readonly scheduler: { enabled: boolean; tickMs: number };
  /** GraphQL: file the code-first schema is written to at start (the committed schema.gql), or null. */
  readonly graphqlSchemaFile: string | null;
  /**
   * Requests per minute per authenticated credential and per client IP (null = no limit), counted in
   * Redis when redisUrl is set (shared by every instance), else in this process's memory.
   */
  readonly rateLimit: { perCredentialPerMinute: number | null; perIpPerMinute: number | null; keyPrefix: string; redisUrl: string | null };
  /** The HTTP server's timeouts (node:http requestTimeout, headersTimeout, keepAliveTimeout), in ms. */
  readonly httpTimeouts: { requestMs: number; headersMs: number; keepAliveMs: number };
  /**
   * Notifications (src/notifications): whether private/loopback targets are allowed (SSRF guard), how
   * often due ones are sent, the retry schedule, and how long before a capture deadline the reminder goes.
   */
  readonly notifications: {
    allowPrivateTargets: boolean;
    deliveryIntervalMs: number;
    retry: { firstDelayMs: number; maxDelayMs: number; retryForMs: number };
    captureReminderSeconds: number;
  };
  /** How long the payment page waits for a shopper's 3-D Secure or redirect step before ending it as abandoned. */
  readonly paymentAuthenticationTimeoutSeconds: number;
  /** Remittance runs: how often the scheduled one runs, and the fee on each payment (src/remittance). */
  readonly remittance: { intervalSeconds: number; fee: { percent: string; fixedMinor: number } };

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
    this.trustProxy = env.TRUST_PROXY === '1';
    this.metricsToken = env.METRICS_TOKEN ?? null;
    this.scheduler = { enabled: env.SCHEDULER_ENABLED !== 'false', tickMs: env.SCHEDULER_TICK_MS ?? 1000 };
    this.graphqlSchemaFile = env.GRAPHQL_SCHEMA_FILE ?? null;
    this.rateLimit = {
      perCredentialPerMinute: env.RATE_LIMIT_PER_MINUTE || null,
      perIpPerMinute: env.RATE_LIMIT_IP_PER_MINUTE || null,
      keyPrefix: env.RATE_LIMIT_KEY_PREFIX ?? 'payments:ratelimit:',
      redisUrl: env.REDIS_URL ?? null,
    };
    this.httpTimeouts = {
      requestMs: env.HTTP_REQUEST_TIMEOUT_MS ?? 30_000,
      headersMs: env.HTTP_HEADERS_TIMEOUT_MS ?? Math.min(20_000, env.HTTP_REQUEST_TIMEOUT_MS ?? 30_000),
      keepAliveMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS ?? 5_000,
    };
    this.notifications = {
      allowPrivateTargets: (env.NOTIFY_ALLOW_PRIVATE_TARGETS ?? (this.environment === 'production' ? 'false' : 'true')) === 'true',
      deliveryIntervalMs: env.NOTIFY_DELIVERY_INTERVAL_MS ?? 1000,
      retry: {
        firstDelayMs: env.NOTIFY_RETRY_FIRST_DELAY_MS ?? 30_000,
        maxDelayMs: env.NOTIFY_RETRY_MAX_DELAY_MS ?? 6 * 3600_000,
        retryForMs: (env.NOTIFY_RETRY_FOR_SECONDS ?? 3 * 24 * 3600) * 1000,
      },
      captureReminderSeconds: env.NOTIFY_CAPTURE_REMINDER_SECONDS ?? 24 * 3600,
    };
    this.paymentAuthenticationTimeoutSeconds = env.PAYMENT_AUTHENTICATION_TIMEOUT_SECONDS ?? 1800;
    this.remittance = {
      intervalSeconds: env.REMITTANCE_INTERVAL_SECONDS ?? 24 * 3600,
      fee: { percent: env.REMITTANCE_FEE_PERCENT ?? '0', fixedMinor: env.REMITTANCE_FEE_FIXED_MINOR ?? 0 },
    };
    this.secretRotationOverlapSeconds = env.SECRET_ROTATION_OVERLAP_SECONDS ?? 24 * 3600;
    this.checkoutReplayWindowSeconds = env.CHECKOUT_REPLAY_WINDOW_SECONDS ?? 300;
    // Optional in sandbox so that clients written for the real API (which has no Timestamp) keep working.
    this.checkoutRequireTimestamp = (env.CHECKOUT_REQUIRE_TIMESTAMP ?? (this.environment === 'production' ? 'true' : 'false')) === 'true';
    const morUrl = env.MOR_URL ?? `${this.publicUrl}/merchant-of-record`;
    this.merchantOfRecord = {
      name: env.MOR_NAME ?? (this.isSandbox ? 'Sandbox Merchant of Record Ltd.' : 'Merchant of Record'),
      url: morUrl,
      termsUrl: env.MOR_TERMS_URL ?? `${morUrl}/terms`,
    };

    const problems: string[] = [];
    // Browsers send the origin in lower case without a default port; normalise so that a match is exact.
    this.corsOrigins = [];
    for (const origin of (env.CORS_ORIGINS ?? '').split(',').filter(Boolean)) {
      try {
        this.corsOrigins.push(new URL(origin).origin);
      } catch {
        problems.push(`  CORS_ORIGINS: ${JSON.stringify(origin)} is not a valid origin`);
      }
    }
    if (this.notifications.retry.maxDelayMs < this.notifications.retry.firstDelayMs) {
      problems.push(`  NOTIFY_RETRY_MAX_DELAY_MS (${this.notifications.retry.maxDelayMs}) must not be below NOTIFY_RETRY_FIRST_DELAY_MS (${this.notifications.retry.firstDelayMs})`);
    }
    if (this.environment === 'production' && this.notifications.retry.retryForMs < 3 * 24 * 3600_000) {
      problems.push('  NOTIFY_RETRY_FOR_SECONDS: production retries notifications for at least 3 days (259200), as merchants are promised');
    }
    if (this.httpTimeouts.headersMs > this.httpTimeouts.requestMs) {
      // node:http refuses to start a server so configured (the whole request includes its headers).
      problems.push(`  HTTP_HEADERS_TIMEOUT_MS (${this.httpTimeouts.headersMs}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${this.httpTimeouts.requestMs})`);
    }
    if (Boolean(env.TLS_CERT_FILE) !== Boolean(env.TLS_KEY_FILE)) {
      problems.push('  TLS_CERT_FILE and TLS_KEY_FILE go together: set both or neither');
    }
    for (const name of ['TLS_CERT_FILE', 'TLS_KEY_FILE'] as const) {
      if (env[name] && !existsSync(env[name]!)) problems.push(`  ${name}=${JSON.stringify(env[name])}: no such file`);
    }
    this.tls = env.TLS_CERT_FILE && env.TLS_KEY_FILE ? { certFile: env.TLS_CERT_FILE, keyFile: env.TLS_KEY_FILE } : null;

    if (env.SECRETS_KEY && env.SECRETS_KEY_FILE) problems.push('  SECRETS_KEY and SECRETS_KEY_FILE: set one, not both');
    if (env.SECRETS_KEY) {
      this.secretsKey = { value: env.SECRETS_KEY, previous: env.SECRETS_KEY_PREVIOUS ?? null };
    } else {
      // Sandbox default: a key file beside the SQLite database (or in data/), created at first start.
      const sqliteDir = this.database.type === 'sqlite' && this.database.path !== ':memory:' ? dirname(this.database.path) : 'data';
      this.secretsKey = { file: env.SECRETS_KEY_FILE ?? join(sqliteDir, 'secrets.key') };
    }

    if (this.environment === 'production') {
      if (!this.tls && !this.trustProxy) {
        problems.push(
          '  APP_ENV=production needs HTTPS: set TLS_CERT_FILE and TLS_KEY_FILE (the service serves TLS 1.2+), ' +
            'or TRUST_PROXY=1 when a TLS-terminating proxy sends X-Forwarded-Proto',
        );
      }
      if (!env.SECRETS_KEY && !env.SECRETS_KEY_FILE) {
        problems.push('  APP_ENV=production needs SECRETS_KEY or SECRETS_KEY_FILE (the key that encrypts signing secrets)');
      } else if (env.SECRETS_KEY_FILE && !existsSync(env.SECRETS_KEY_FILE)) {
        problems.push(`  SECRETS_KEY_FILE=${JSON.stringify(env.SECRETS_KEY_FILE)}: no such file (production never creates one)`);
      }
    }
    if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
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
