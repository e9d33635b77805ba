import Redis from 'ioredis';
import { RateLimitHit, RateLimitStore } from './rate-limit-store';

/**
 * One round trip, atomic on the Redis server: count the hit, and open the window (PEXPIRE) when the
 * key is new, or has no expiry for any reason (so that a counter can never live forever).
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

type RedisWithHit = Redis & { rateLimitHit(key: string, windowMs: number): Promise<[number, number]> };

/**
 * Counters in Redis (REDIS_URL), shared by every instance. Commands are not queued while Redis is
 * unreachable: they fail at once, and the RateLimiter lets the request through (fail open) rather
 * than refusing all traffic because the counter store is down.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: RedisWithHit;

  constructor(url: string, onError: (error: Error) => void) {
    this.redis = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      commandTimeout: 1000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
      // ioredis waits this long for a socket to close on disconnect, even one that never opened.
      disconnectTimeout: 200,
    }) as RedisWithHit;
    this.redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    // Without a listener ioredis prints every connection error itself.
    this.redis.on('error', onError);
  }

  /** Waits for the first connection (up to its timeout); false when Redis did not answer. */
  async connect(): Promise<boolean> {
    try {
      await this.redis.connect();
      return true;
    } catch {
      return false;
    }
  }

  async hit(key: string, windowMs: number): Promise<RateLimitHit> {
    const [count, resetMs] = await this.redis.rateLimitHit(key, windowMs);
    return { count: Number(count), resetMs: Number(resetMs) };
  }

  async close(): Promise<void> {
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => this.redis.disconnect());
    else this.redis.disconnect();
  }
}
