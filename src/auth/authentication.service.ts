import { Injectable } from '@nestjs/common';
import { AppConfig } from '../common/config/app-config';
import { CredentialCache } from './credential-cache';
import { DECOY_HASH_PROMISE, verifyPassword } from './password-hasher';
import { Principal } from './principal';
import { UserService } from './user.service';

/** Checks Basic credentials: a cache hit costs a SHA-256, a miss one scrypt verification. */
@Injectable()
export class AuthenticationService {
  private readonly cache: CredentialCache;

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

    const user = await this.users.findByUsername(username);
    // Hash even for unknown users so that response time does not tell which usernames exist.
    const valid = await verifyPassword(password, user?.passwordHash ?? (await DECOY_HASH_PROMISE));
    if (!user || !valid) return null;

    const principal: Principal = { userId: user.id, username: user.username, role: user.role, merchantId: user.merchantId };
    this.cache.set(key, principal);
    return principal;
  }
}
