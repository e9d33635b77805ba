import { AppConfig } from '../common/config/app-config';
import { AuthenticationService } from './authentication.service';
import { hashPassword } from './password-hasher';
import { User } from './user.entity';
import { UserService } from './user.service';

describe('AuthenticationService', () => {
  let user: User;
  let lookups: number;
  let service: AuthenticationService;

  beforeAll(async () => {
    user = { id: 'u1', username: 'shop', passwordHash: await hashPassword('right-password'), role: 'merchant', merchantId: 'm1' } as User;
  });
  beforeEach(() => {
    lookups = 0;
    // Every verification looks the user up once, then runs scrypt: lookups count verifications.
    const users = { findByUsername: async (username: string) => (lookups++, username === user.username ? user : null) } as unknown as UserService;
    service = new AuthenticationService(users, { credentialCacheTtlSeconds: 60 } as AppConfig);
  });

  it('verifies concurrent requests with the same credentials once, and then answers from the cache', async () => {
    const principals = await Promise.all(Array.from({ length: 32 }, () => service.authenticate('shop', 'right-password')));
    expect(lookups).toBe(1);
    expect(new Set(principals.map((p) => p?.userId))).toEqual(new Set(['u1']));
    await service.authenticate('shop', 'right-password');
    expect(lookups).toBe(1);
  });

  it('shares a failed verification only while it runs: a later attempt is verified again', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => service.authenticate('shop', 'wrong-password')));
    expect(answers).toEqual(Array(8).fill(null));
    expect(lookups).toBe(1);
    expect(await service.authenticate('shop', 'wrong-password')).toBeNull();
    expect(lookups).toBe(2);
  });

  it('never lets other credentials join a verification', async () => {
    const [right, wrong, unknown] = await Promise.all([
      service.authenticate('shop', 'right-password'),
      service.authenticate('shop', 'wrong-password'),
      service.authenticate('nobody', 'right-password'),
    ]);
    expect(right?.userId).toBe('u1');
    expect(wrong).toBeNull();
    expect(unknown).toBeNull();
    expect(lookups).toBe(3);
  });
});
