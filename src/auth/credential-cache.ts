import { createHash } from 'node:crypto';
import { Principal } from './principal';

const MAX_ENTRIES = 10_000;

/**
 * Remembers credentials that passed the slow hash for a short time, keyed by a SHA-256 of
 * username and password (never the password itself). Only successes are cached; a changed or
 * removed user is seen again after the TTL at the latest.
 */
export class CredentialCache {
  private readonly entries = new Map<string, { principal: Principal; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  static keyOf(username: string, password: string): string {
    return createHash('sha256').update(username).update('\0').update(password).digest('base64');
  }

  get(key: string): Principal | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return null;
    }
    return entry.principal;
  }

  set(key: string, principal: Principal): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= MAX_ENTRIES) {
      // Map iterates in insertion order: drop the oldest entry.
      this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(key, { principal, expiresAt: this.now() + this.ttlMs });
  }

  clear(): void {
    this.entries.clear();
  }
}
