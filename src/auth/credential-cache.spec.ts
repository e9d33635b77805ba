import { CredentialCache } from './credential-cache';
import { Principal } from './principal';
import { Role } from './user.entity';

const principal: Principal = { userId: 'u1', username: 'alice', role: Role.Merchant, merchantId: 'm1' };

describe('CredentialCache', () => {
  let now: number;
  let sut: CredentialCache;

  beforeEach(() => {
    now = 1_000_000;
    sut = new CredentialCache(60_000, () => now);
  });

  it('returns a cached principal until the TTL passes', () => {
    const key = CredentialCache.keyOf('alice', 'secret');
    sut.set(key, principal);
    now += 59_999;
    expect(sut.get(key)).toBe(principal);
    now += 1;
    expect(sut.get(key)).toBeNull();
  });

  it('keys on username and password together', () => {
    expect(CredentialCache.keyOf('alice', 'secret')).not.toBe(CredentialCache.keyOf('alice', 'secreT'));
    expect(CredentialCache.keyOf('a', 'bc')).not.toBe(CredentialCache.keyOf('ab', 'c'));
  });

  it('caches nothing when the TTL is zero', () => {
    const zero = new CredentialCache(0, () => now);
    zero.set('k', principal);
    expect(zero.get('k')).toBeNull();
  });
});
