import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { AppConfig } from '../config/app-config';

/** Key files: the current one, the one it replaced (`.previous`) and one being rotated in (`.next`). */
export const previousKeyFile = (file: string) => `${file}.previous`;
export const nextKeyFile = (file: string) => `${file}.next`;

const decode = (base64: string) => Buffer.from(base64.trim(), 'base64');

/**
 * The keys that may open stored secrets, current first. In sandbox a missing key file is created
 * (0600); production never creates one (the configuration check refuses to start without it).
 */
export function loadSecretsKeys(config: AppConfig): Buffer[] {
  const source = config.secretsKey;
  if ('value' in source) return [source.value, source.previous].filter((k): k is string => !!k).map(decode);
  if (!existsSync(source.file)) {
    if (!config.isSandbox) throw new Error(`SECRETS_KEY_FILE ${source.file} does not exist`);
    // Instances starting together may all get here: one creates the file, all read that one's key.
    createKeyFile(source.file, randomBytes(32));
  }
  const keys = [decode(readFileSync(source.file, 'utf8'))];
  // A rotation that stopped between re-encrypting and renaming its files leaves .next behind.
  for (const extra of [nextKeyFile(source.file), previousKeyFile(source.file)]) {
    if (existsSync(extra)) keys.push(decode(readFileSync(extra, 'utf8')));
  }
  return keys;
}

/**
 * Creates `file` holding `key` unless it exists; true if this call created it. The key is written
 * in full to a temporary file first and then hard-linked into place: link() fails if the name
 * exists, so of several processes exactly one wins, and no reader ever sees a half-written key.
 */
export function createKeyFile(file: string, key: Buffer): boolean {
  const temp = writeTemporaryKeyFile(file, key);
  try {
    linkSync(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Writes (or replaces) `file` with `key`; renamed into place, so the file is never half-written. */
export function writeKeyFile(file: string, key: Buffer): void {
  const temp = writeTemporaryKeyFile(file, key);
  try {
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

export function replaceKeyFile(file: string): void {
  renameSync(file, previousKeyFile(file));
  renameSync(nextKeyFile(file), file);
}

/** A new owner-only (0600) file beside `file`, with a name no other process uses. */
function writeTemporaryKeyFile(file: string, key: Buffer): string {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temp, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(temp, 0o600); // exactly 0600, whatever the umask
  return temp;
}
