import { randomBytes } from 'node:crypto';
import type { SigningSecretService } from '../../auth/signing-secret.service';
import { AppConfig } from '../config/app-config';
import { keyIdOf, SecretBox } from './secret-box';
import { loadSecretsKeys, nextKeyFile, replaceKeyFile, writeKeyFile } from './secrets-key';

/**
 * `cli secrets rotate-key`: a new random key, every stored secret resealed with it in one transaction.
 * Key file: the new key is written to FILE.next first and moved into place after the commit (the old
 * one becomes FILE.previous), so a stop at any point leaves every secret readable. Key in SECRETS_KEY:
 * the new key is printed; set SECRETS_KEY to it and SECRETS_KEY_PREVIOUS to the old one.
 */
export async function rotateSecretsKey(config: AppConfig, signingSecrets: SigningSecretService): Promise<object> {
  const oldKeys = loadSecretsKeys(config);
  const newKey = randomBytes(32);
  const source = config.secretsKey;
  if ('file' in source) writeKeyFile(nextKeyFile(source.file), newKey);

  const resealed = await signingSecrets.resealAll(new SecretBox(() => [newKey, ...oldKeys]));
  const result = { KeyId: keyIdOf(newKey), PreviousKeyId: keyIdOf(oldKeys[0]), Resealed: resealed };
  if ('file' in source) {
    replaceKeyFile(source.file);
    return { ...result, KeyFile: source.file };
  }
  return { ...result, SecretsKey: newKey.toString('base64') };
}
