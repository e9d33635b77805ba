/** One counted request: how many in the current window so far (this one included), and when the window ends. */
export interface RateLimitHit {
  count: number;
  /** Milliseconds until the window (and so the count) resets. */
  resetMs: number;
}

/**
 * Fixed-window counters: the first hit on a key opens a window of windowMs; every hit in it adds one.
 * Implementations: MemoryRateLimitStore (one process) and RedisRateLimitStore (shared by instances).
 */
export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<RateLimitHit>;
  close(): Promise<void>;
}

/** Counters in this process's memory: each instance counts alone (see REDIS_URL to share them). */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly now: () => number = Date.now,
    sweepIntervalMs = 60_000,
  ) {
    // Windows that ended are dropped, so one-off keys (IP addresses) do not pile up.
    this.sweeper = setInterval(() => this.sweep(), sweepIntervalMs);
    this.sweeper.unref();
  }

  async hit(key: string, windowMs: number): Promise<RateLimitHit> {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count++;
    return { count: window.count, resetMs: window.resetAt - now };
  }

  /** How many keys are held (tests). */
  get size(): number {
    return this.windows.size;
  }

  sweep(): void {
    const now = this.now();
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.windows.clear();
  }
}
