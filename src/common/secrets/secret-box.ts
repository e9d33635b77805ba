import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const VERSION = 'v1';

/** Short, public name of a key: which key sealed a value, without revealing the key. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 12);
}

/**
 * Encrypts secrets at rest with AES-256-GCM. A sealed value is "v1:<keyId>:<iv>:<tag>:<ciphertext>"
 * (base64url parts), so that values sealed under an older key can still be opened during a key
 * rotation. New values are always sealed with the current key.
 */
export class SecretBox {
  private keys = new Map<string, Buffer>();
  private currentId: string;

  /** `loadKeys` returns the current key first, then older ones; it is asked again for an unknown key id. */
  constructor(private readonly loadKeys: () => Buffer[]) {
    this.reload();
  }

  get currentKeyId(): string {
    return this.currentId;
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv(ALGORITHM, this.keys.get(this.currentId)!, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, this.currentId, iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join(':');
  }

  open(sealed: string): string {
    const [version, keyId, iv, tag, ciphertext] = sealed.split(':');
    if (version !== VERSION || !ciphertext) throw new Error('Not a sealed secret');
    // Another instance may have rotated the key since this one started: read the keys again once.
    if (!this.keys.has(keyId)) this.reload();
    const key = this.keys.get(keyId);
    if (!key) throw new Error(`Secret sealed with unknown key ${keyId}: is SECRETS_KEY (or its file) the right one?`);
    const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }

  keyIdOfSealed(sealed: string): string {
    return sealed.split(':')[1];
  }

  private reload(): void {
    const keys = this.loadKeys();
    if (keys.length === 0 || keys.some((key) => key.length !== 32)) throw new Error('Secrets keys must be 32 bytes');
    this.keys = new Map(keys.map((key) => [keyIdOf(key), key]));
    this.currentId = keyIdOf(keys[0]);
  }
}
