import { Injectable } from '@nestjs/common';
import { AppConfig } from '../common/config/app-config';
import { CredentialCache } from './credential-cache';
import { DECOY_HASH_PROMISE, verifyPassword } from './password-hasher';
import { Principal } from './principal';
import { UserService } from './user.service';

/**
 * Checks Basic credentials: a cache hit costs a SHA-256, a miss one scrypt verification. Requests that
 * miss with the same credentials while one verification runs wait for it rather than start their own:
 * when a busy client's entry expired, its 32 requests in flight each ran a 16 MiB scrypt, queued four
 * at a time on libuv's pool, and every request waited ~0.5 s once a minute.
 */
@Injectable()
export class AuthenticationService {
  private readonly cache: CredentialCache;
  private readonly verifying = new Map<string, Promise<Principal | null>>();

  constructor(
    private readonly users: UserService,
    config: AppConfig,
  ) {
    this.cache = new CredentialCache(config.credentialCacheTtlSeconds * 1000);
  }

  async authenticate(username: string, password: string): Promise<Principal | null> {
    const key = CredentialCache.keyOf(username, password);
    const cached = this.cache.get(key);
    if (cached) return cached;
    let verification = this.verifying.get(key);
    if (!verification) {
      verification = this.verify(username, password, key).finally(() => this.verifying.delete(key));
      this.verifying.set(key, verification);
    }
    return verification;
  }

  private async verify(username: string, password: string, key: string): Promise<Principal | null> {
    const user = await this.users.findByUsername(username);
    // Hash even for unknown users so that response time does not tell which usernames exist.
    const valid = await verifyPassword(password, user?.passwordHash ?? (await DECOY_HASH_PROMISE));
    if (!user || !valid) return null;

    const principal: Principal = { userId: user.id, username: user.username, role: user.role, merchantId: user.merchantId };
    this.cache.set(key, principal);
    return principal;
  }
}
