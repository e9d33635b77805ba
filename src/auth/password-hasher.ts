import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/** scrypt cost: ~50 ms and 16 MiB per hash, which is why verified credentials are cached. */
export const SCRYPT_COST = { N: 16384, r: 8, p: 1 };
const COST = SCRYPT_COST;
const KEY_LENGTH = 32;
const maxmem = (n: number, r: number) => 256 * n * r;

/** Slow, salted password hashes in the self-describing form scrypt$N$r$p$salt$hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, KEY_LENGTH, { ...COST, maxmem: maxmem(COST.N, COST.r) });
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const params = { N: Number(n), r: Number(r), p: Number(p), maxmem: maxmem(Number(n), Number(r)) };
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, params);
  return timingSafeEqual(actual, expected);
}

/** A hash of a random password, verified against when the user does not exist so timing reveals nothing. */
export const DECOY_HASH_PROMISE: Promise<string> = hashPassword(randomBytes(16).toString('hex'));
