import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
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
    writeKeyFile(source.file, randomBytes(32));
  }
  const keys = [decode(readFileSync(source.file, 'utf8'))];
  // A rotation that stopped between re-encrypting and renaming its files leaves .next behind.
  for (const extra of [nextKeyFile(source.file), previousKeyFile(source.file)]) {
    if (existsSync(extra)) keys.push(decode(readFileSync(extra, 'utf8')));
  }
  return keys;
}

export function writeKeyFile(file: string, key: Buffer): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

export function replaceKeyFile(file: string): void {
  renameSync(file, previousKeyFile(file));
  renameSync(nextKeyFile(file), file);
}
