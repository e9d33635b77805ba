import { randomBytes } from 'node:crypto';
import { keyIdOf, SecretBox } from './secret-box';

describe('SecretBox', () => {
  const keyA = randomBytes(32);
  const keyB = randomBytes(32);

  it('seals and opens, never storing the plaintext', () => {
    const sut = new SecretBox(() => [keyA]);
    const sealed = sut.seal('top-secret-value');
    expect(sealed).not.toContain('top-secret-value');
    expect(sealed.startsWith(`v1:${keyIdOf(keyA)}:`)).toBe(true);
    expect(sut.open(sealed)).toBe('top-secret-value');
    expect(sut.seal('same')).not.toBe(sut.seal('same')); // random IV
  });

  it('refuses a tampered value (GCM tag)', () => {
    const sut = new SecretBox(() => [keyA]);
    const parts = sut.seal('value').split(':');
    parts[4] = Buffer.from('tampered').toString('base64url');
    expect(() => sut.open(parts.join(':'))).toThrow();
  });

  it('opens values of an older key and seals with the current one', () => {
    const old = new SecretBox(() => [keyA]).seal('value');
    const sut = new SecretBox(() => [keyB, keyA]);
    expect(sut.open(old)).toBe('value');
    expect(sut.keyIdOfSealed(sut.seal('value'))).toBe(keyIdOf(keyB));
  });

  it('reads the keys again when it meets an unknown key id (rotated by another instance)', () => {
    let keys = [keyA];
    const sut = new SecretBox(() => keys);
    const sealedWithB = new SecretBox(() => [keyB]).seal('value');
    keys = [keyB, keyA];
    expect(sut.open(sealedWithB)).toBe('value');
  });

  it('says which key is missing rather than returning garbage', () => {
    const sut = new SecretBox(() => [keyA]);
    expect(() => sut.open(new SecretBox(() => [keyB]).seal('x'))).toThrow(/unknown key/);
  });
});
