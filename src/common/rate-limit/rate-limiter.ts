import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Response } from 'express';
import { createHash } from 'node:crypto';
import { isIPv6 } from 'node:net';
import { AppConfig } from '../config/app-config';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-codes';
import { RateLimitStore } from './rate-limit-store';
import { RedisRateLimitStore } from './redis-rate-limit-store';

export const RATE_LIMIT_STORE = 'RATE_LIMIT_STORE';

const WINDOW_MS = 60_000;
/** At most one "counter store unreachable" warning per this many ms (it can fail on every request). */
const WARN_EVERY_MS = 30_000;

export type RateLimitKind = 'ip' | 'credential';

const REFUSAL: Record<RateLimitKind, string> = {
  ip: 'Too many requests from this IP address',
  credential: 'Too many requests with these credentials',
};

/**
 * Counts requests per minute per key and refuses the one over the limit with 429 TOO_MANY_REQUESTS
 * and Retry-After (seconds until the window ends). Keys are hashed: no username, merchant id or
 * address is stored in Redis in clear. When the store fails, the request goes through (fail open).
 */
@Injectable()
export class RateLimiter implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('RateLimit');
  private lastWarning = 0;

  constructor(
    private readonly config: AppConfig,
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.store instanceof RedisRateLimitStore && !(await this.store.connect())) {
      this.logger.warn(`Redis at ${redisHost(this.config.rateLimit.redisUrl!)} does not answer: requests are not rate limited until it does`);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.store.close();
  }

  /** Counts one request for `id`; throws the 429 (after setting Retry-After) when it is over `limit`. */
  async check(kind: RateLimitKind, id: string, limit: number, response: Response): Promise<void> {
    let hit;
    try {
      hit = await this.store.hit(this.key(kind, id), WINDOW_MS);
    } catch (error) {
      this.storeFailed(error);
      return;
    }
    if (hit.count <= limit) return;
    response.setHeader('Retry-After', String(Math.max(1, Math.ceil(hit.resetMs / 1000))));
    throw new DomainError(ErrorCode.TooManyRequests, `${REFUSAL[kind]}: at most ${limit} per minute; retry after the number of seconds in Retry-After`);
  }

  storeFailed(error: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = now;
    this.logger.warn(`rate-limit counters unavailable, requests let through: ${error instanceof Error ? error.message : String(error)}`);
  }

  private key(kind: RateLimitKind, id: string): string {
    return `${this.config.rateLimit.keyPrefix}${kind}:${createHash('sha256').update(id).digest('base64url').slice(0, 32)}`;
  }
}

/**
 * The address a per-IP limit counts: IPv4 as is (IPv4-mapped IPv6 too), IPv6 by its /64 network, which
 * one client gets whole (counting single IPv6 addresses would let it rotate through 2^64 of them).
 */
export function clientAddressKey(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!isIPv6(ip)) return ip;
  const [head, tail = ''] = ip.split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((group) => parseInt(group, 16).toString(16)).join(':')}::/64`;
}

function redisHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'REDIS_URL';
  }
}
