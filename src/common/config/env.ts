import { plainToInstance } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, validateSync } from 'class-validator';

/** The environment variables the service reads; nothing else reads process.env. */
export class Env {
  @IsOptional() @IsInt() @Min(0) @Max(65535)
  PORT?: number;

  /** Interface to listen on; unset = every interface (Node's default). */
  @IsOptional() @Matches(/^[\w.:-]+$/, { message: 'must be a host name or an IP address' })
  HOST?: string;

  @IsOptional() @IsString()
  @Matches(/^(sqlite:.+|mysql:\/\/.+)$/, {
    message: 'must be sqlite:PATH, sqlite::memory: or mysql://user:pass@host:port/db',
  })
  DATABASE_URL?: string;

  @IsOptional() @IsIn(['sandbox', 'production'])
  APP_ENV?: 'sandbox' | 'production';

  @IsOptional() @Matches(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, { message: 'must be an absolute http(s) URL' })
  PUBLIC_URL?: string;

  @IsOptional() @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL?: string;

  /** Comma-separated API versions served, newest last (e.g. "v2.21,v2.22"). */
  @IsOptional() @Matches(/^v\d+\.\d{2}(,v\d+\.\d{2})*$/, { message: 'must look like v2.22 or v2.21,v2.22' })
  API_VERSIONS?: string;

  @IsOptional() @IsInt() @Min(60) @Max(30 * 24 * 3600)
  SESSION_TTL_SECONDS?: number;

  @IsOptional() @IsInt() @Min(0) @Max(3600)
  CREDENTIAL_CACHE_TTL_SECONDS?: number;

  @IsOptional() @Matches(/^\d+(kb|mb)$/, { message: 'must look like 100kb or 1mb' })
  BODY_LIMIT?: string;

  @IsOptional() @IsInt() @Min(1) @Max(500)
  DB_POOL_SIZE?: number;

  @IsOptional() @IsInt() @Min(1) @Max(24 * 3600)
  IDEMPOTENCY_TTL_SECONDS?: number;

  @IsOptional() @IsString()
  TLS_CERT_FILE?: string;

  @IsOptional() @IsString()
  TLS_KEY_FILE?: string;

  /** 1: behind a TLS-terminating proxy whose X-Forwarded-Proto is trusted. */
  @IsOptional() @IsIn(['0', '1'])
  TRUST_PROXY?: string;

  /** Base64 of 32 random bytes: the key that encrypts signing secrets at rest. */
  @IsOptional() @Matches(/^[A-Za-z0-9+/]{43}=$/, { message: 'must be 32 bytes in base64 (openssl rand -base64 32)' })
  SECRETS_KEY?: string;

  /** The previous SECRETS_KEY, kept while a key rotation reaches every instance. */
  @IsOptional() @Matches(/^[A-Za-z0-9+/]{43}=$/, { message: 'must be 32 bytes in base64 (openssl rand -base64 32)' })
  SECRETS_KEY_PREVIOUS?: string;

  @IsOptional() @IsString()
  SECRETS_KEY_FILE?: string;

  /** The merchant-of-record entity shown in badges and on the payment page. */
  @IsOptional() @IsString() @Matches(/^.{1,200}$/, { message: 'must be 1 to 200 characters' })
  MOR_NAME?: string;

  @IsOptional() @Matches(/^https?:\/\/\S+$/, { message: 'must be an absolute http(s) URL' })
  MOR_URL?: string;

  @IsOptional() @Matches(/^https?:\/\/\S+$/, { message: 'must be an absolute http(s) URL' })
  MOR_TERMS_URL?: string;

  /** Comma-separated browser origins allowed by CORS (https://shop.example,http://localhost:8080); unset = none. */
  @IsOptional()
  @Matches(/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?(,https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?)*$/, {
    message: 'must be comma-separated http(s) origins without paths, e.g. https://shop.example,http://localhost:8080',
  })
  CORS_ORIGINS?: string;

  /** When set, GET /metrics requires Authorization: Bearer <token>; unset = open (keep it off the internet). */
  @IsOptional() @Matches(/^[A-Za-z0-9._~+\/=-]{16,}$/, { message: 'must be at least 16 token characters (letters, digits, ._~+/=-)' })
  METRICS_TOKEN?: string;

  /** How long a merchant's previous signing secret still verifies after a rotation. */
  @IsOptional() @IsInt() @Min(0) @Max(30 * 24 * 3600)
  SECRET_ROTATION_OVERLAP_SECONDS?: number;

  /** "false": this instance runs no scheduled jobs (the other instances still do). */
  @IsOptional() @IsIn(['true', 'false'])
  SCHEDULER_ENABLED?: 'true' | 'false';

  /** How often an instance looks for due scheduled jobs, in milliseconds. */
  @IsOptional() @IsInt() @Min(10) @Max(3600 * 1000)
  SCHEDULER_TICK_MS?: number;

  /** How far a signed Checkout request's Timestamp may be from the server's clock (either way). */
  @IsOptional() @IsInt() @Min(1) @Max(24 * 3600)
  CHECKOUT_REPLAY_WINDOW_SECONDS?: number;

  /** Whether signed Checkout requests must carry a Timestamp; unset = only in production. */
  @IsOptional() @IsIn(['true', 'false'])
  CHECKOUT_REQUIRE_TIMESTAMP?: 'true' | 'false';

  /** Where to write the GraphQL schema (SDL) at start, e.g. schema.gql; unset = kept in memory only. */
  @IsOptional() @IsString() @Matches(/\S/, { message: 'must be a file path' })
  GRAPHQL_SCHEMA_FILE?: string;

  /** Requests per minute one credential (Basic user, or signed-call merchant) may make; 0 = no limit. */
  @IsOptional() @IsInt() @Min(0) @Max(10_000_000)
  RATE_LIMIT_PER_MINUTE?: number;

  /** Requests per minute one client IP address (an IPv6 /64) may make; 0 = no limit. */
  @IsOptional() @IsInt() @Min(0) @Max(10_000_000)
  RATE_LIMIT_IP_PER_MINUTE?: number;

  /** Prefix of the rate-limit counters' keys in Redis (several services, or tests, can share one Redis). */
  @IsOptional() @Matches(/^[\w.:-]{1,100}$/, { message: 'must be 1 to 100 letters, digits or ._:-' })
  RATE_LIMIT_KEY_PREFIX?: string;

  /** Where the instances share rate-limit counts (redis://[user:pass@]host:port[/db] or rediss://); unset = in memory. */
  @IsOptional() @Matches(/^rediss?:\/\/\S+$/, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  /** The HTTP server's limit for receiving a whole request (headers and body), in milliseconds. */
  @IsOptional() @IsInt() @Min(100) @Max(3_600_000)
  HTTP_REQUEST_TIMEOUT_MS?: number;

  /** The HTTP server's limit for receiving a request's headers, in milliseconds (at most HTTP_REQUEST_TIMEOUT_MS). */
  @IsOptional() @IsInt() @Min(100) @Max(3_600_000)
  HTTP_HEADERS_TIMEOUT_MS?: number;

  /** How long an idle kept-alive connection stays open, in milliseconds. */
  @IsOptional() @IsInt() @Min(100) @Max(3_600_000)
  HTTP_KEEP_ALIVE_TIMEOUT_MS?: number;

  /** "true": notifications may go to loopback and private addresses; unset = true in sandbox, false in production (SSRF guard). */
  @IsOptional() @IsIn(['true', 'false'])
  NOTIFY_ALLOW_PRIVATE_TARGETS?: 'true' | 'false';

  /** How often due notifications are looked for and sent (a scheduled job), in milliseconds. */
  @IsOptional() @IsInt() @Min(10) @Max(60_000)
  NOTIFY_DELIVERY_INTERVAL_MS?: number;

  /** The wait before the first retry of a failed notification, in ms (at most 50 s: with +20 % jitter, within a minute). */
  @IsOptional() @IsInt() @Min(10) @Max(50_000)
  NOTIFY_RETRY_FIRST_DELAY_MS?: number;

  /** The longest wait between two retries (the doubling stops there), in milliseconds. */
  @IsOptional() @IsInt() @Min(10) @Max(7 * 24 * 3600_000)
  NOTIFY_RETRY_MAX_DELAY_MS?: number;

  /** How long a failing notification is retried before it is given up, in seconds (production: at least 3 days). */
  @IsOptional() @IsInt() @Min(1) @Max(30 * 24 * 3600)
  NOTIFY_RETRY_FOR_SECONDS?: number;

  /** ORDER_CAPTURE_DEADLINE_APPROACHING is sent this long before an authorization's capture deadline, in seconds. */
  @IsOptional() @IsInt() @Min(60) @Max(6 * 24 * 3600)
  NOTIFY_CAPTURE_REMINDER_SECONDS?: number;

  /** A 3-D Secure or redirect step on the payment page not finished within this long is ended as abandoned, in seconds. */
  @IsOptional() @IsInt() @Min(60) @Max(24 * 3600)
  PAYMENT_AUTHENTICATION_TIMEOUT_SECONDS?: number;

  /** How often the scheduled remittance run settles what was processed and refunded, in seconds. */
  @IsOptional() @IsInt() @Min(60) @Max(31 * 24 * 3600)
  REMITTANCE_INTERVAL_SECONDS?: number;

  /** The merchant-of-record fee on each payment, in per cent of its converted amount ("2.9"). */
  @IsOptional() @Matches(/^(100(\.0{1,4})?|\d{1,2}(\.\d{1,4})?)$/, { message: 'must be a percentage from 0 to 100 with at most 4 decimals, e.g. 2.9' })
  REMITTANCE_FEE_PERCENT?: string;

  /** A fixed fee per payment, in minor units of the remittance currency (30 = 0.30 USD). */
  @IsOptional() @IsInt() @Min(0) @Max(1_000_000_000)
  REMITTANCE_FEE_FIXED_MINOR?: number;
}

const INTEGER_VARIABLES: (keyof Env)[] = [
  'SCHEDULER_TICK_MS',
  'PORT', 'SESSION_TTL_SECONDS', 'CREDENTIAL_CACHE_TTL_SECONDS', 'DB_POOL_SIZE', 'IDEMPOTENCY_TTL_SECONDS',
  'SECRET_ROTATION_OVERLAP_SECONDS', 'CHECKOUT_REPLAY_WINDOW_SECONDS',
  'RATE_LIMIT_PER_MINUTE', 'RATE_LIMIT_IP_PER_MINUTE', 'HTTP_REQUEST_TIMEOUT_MS', 'HTTP_HEADERS_TIMEOUT_MS', 'HTTP_KEEP_ALIVE_TIMEOUT_MS',
  'NOTIFY_DELIVERY_INTERVAL_MS', 'NOTIFY_RETRY_FIRST_DELAY_MS', 'NOTIFY_RETRY_MAX_DELAY_MS', 'NOTIFY_RETRY_FOR_SECONDS', 'NOTIFY_CAPTURE_REMINDER_SECONDS',
  'PAYMENT_AUTHENTICATION_TIMEOUT_SECONDS', 'REMITTANCE_INTERVAL_SECONDS', 'REMITTANCE_FEE_FIXED_MINOR',
];

export class ConfigError extends Error {}

/** Validates the raw environment; throws a ConfigError naming every bad variable. */
export function validateEnv(raw: Record<string, string | undefined>): Env {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(new EnvKeys())) {
    const value = raw[key];
    if (value === undefined || value === '') continue;
    picked[key] = INTEGER_VARIABLES.includes(key as keyof Env) && /^-?\d+$/.test(value) ? Number(value) : value;
  }
  const env = plainToInstance(Env, picked);
  const errors = validateSync(env, { whitelist: true });
  if (errors.length > 0) {
    const lines = errors.map((e) => {
      const reasons = Object.values(e.constraints ?? {}).map((m) => m.replace(`${e.property} `, ''));
      return `  ${e.property}=${JSON.stringify(raw[e.property])}: ${reasons.join('; ')}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return env;
}

/** Lists the variable names so that only known keys are read (class-validator needs instances). */
class EnvKeys implements Required<Record<keyof Env, true>> {
  PORT = true as const;
  HOST = true as const;
  DATABASE_URL = true as const;
  APP_ENV = true as const;
  PUBLIC_URL = true as const;
  LOG_LEVEL = true as const;
  API_VERSIONS = true as const;
  SESSION_TTL_SECONDS = true as const;
  CREDENTIAL_CACHE_TTL_SECONDS = true as const;
  BODY_LIMIT = true as const;
  DB_POOL_SIZE = true as const;
  IDEMPOTENCY_TTL_SECONDS = true as const;
  TLS_CERT_FILE = true as const;
  TLS_KEY_FILE = true as const;
  TRUST_PROXY = true as const;
  SECRETS_KEY = true as const;
  SECRETS_KEY_PREVIOUS = true as const;
  SECRETS_KEY_FILE = true as const;
  SECRET_ROTATION_OVERLAP_SECONDS = true as const;
  CHECKOUT_REPLAY_WINDOW_SECONDS = true as const;
  CHECKOUT_REQUIRE_TIMESTAMP = true as const;
  GRAPHQL_SCHEMA_FILE = true as const;
  MOR_NAME = true as const;
  MOR_URL = true as const;
  MOR_TERMS_URL = true as const;
  CORS_ORIGINS = true as const;
  METRICS_TOKEN = true as const;
  SCHEDULER_ENABLED = true as const;
  SCHEDULER_TICK_MS = true as const;
  RATE_LIMIT_PER_MINUTE = true as const;
  RATE_LIMIT_IP_PER_MINUTE = true as const;
  RATE_LIMIT_KEY_PREFIX = true as const;
  REDIS_URL = true as const;
  HTTP_REQUEST_TIMEOUT_MS = true as const;
  HTTP_HEADERS_TIMEOUT_MS = true as const;
  HTTP_KEEP_ALIVE_TIMEOUT_MS = true as const;
  NOTIFY_ALLOW_PRIVATE_TARGETS = true as const;
  NOTIFY_DELIVERY_INTERVAL_MS = true as const;
  NOTIFY_RETRY_FIRST_DELAY_MS = true as const;
  NOTIFY_RETRY_MAX_DELAY_MS = true as const;
  NOTIFY_RETRY_FOR_SECONDS = true as const;
  NOTIFY_CAPTURE_REMINDER_SECONDS = true as const;
  PAYMENT_AUTHENTICATION_TIMEOUT_SECONDS = true as const;
  REMITTANCE_INTERVAL_SECONDS = true as const;
  REMITTANCE_FEE_PERCENT = true as const;
  REMITTANCE_FEE_FIXED_MINOR = true as const;
}
