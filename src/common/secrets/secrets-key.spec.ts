import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig } from '../config/app-config';
import { createKeyFile, loadSecretsKeys, nextKeyFile, writeKeyFile } from './secrets-key';

const fileConfig = (file: string, isSandbox = true) => ({ isSandbox, secretsKey: { file } }) as AppConfig;
const contentOf = (file: string) => Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');

describe('secrets key files', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'secrets-key-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe(createKeyFile.name, () => {
    it('creates a missing file (and its folder), owner-only, leaving no temporary file', () => {
      const file = join(dir, 'nested', 'secrets.key');
      const key = randomBytes(32);
      expect(createKeyFile(file, key)).toBe(true);
      expect(contentOf(file)).toEqual(key);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readdirSync(join(dir, 'nested'))).toEqual(['secrets.key']);
    });

    it('never replaces an existing file: the first key stays, the later caller is told it lost', () => {
      const file = join(dir, 'secrets.key');
      const first = randomBytes(32);
      createKeyFile(file, first);
      expect(createKeyFile(file, randomBytes(32))).toBe(false);
      expect(contentOf(file)).toEqual(first);
      expect(readdirSync(dir)).toEqual(['secrets.key']);
    });
  });

  describe(writeKeyFile.name, () => {
    it('replaces a file left behind, whole, owner-only', () => {
      const file = nextKeyFile(join(dir, 'secrets.key'));
      writeFileSync(file, 'half-writ', { mode: 0o644 });
      const key = randomBytes(32);
      writeKeyFile(file, key);
      expect(contentOf(file)).toEqual(key);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readdirSync(dir)).toEqual(['secrets.key.next']);
    });
  });

  describe(loadSecretsKeys.name, () => {
    it('sandbox: creates the missing file once; every later load returns that key', () => {
      const file = join(dir, 'secrets.key');
      const [created] = loadSecretsKeys(fileConfig(file));
      expect(created).toHaveLength(32);
      expect(loadSecretsKeys(fileConfig(file))).toEqual([created]);
      expect(contentOf(file)).toEqual(created);
    });

    it('sandbox: a file another instance created first is used, not replaced', () => {
      const file = join(dir, 'secrets.key');
      const theirs = randomBytes(32);
      createKeyFile(file, theirs);
      expect(loadSecretsKeys(fileConfig(file))).toEqual([theirs]);
    });

    it('production: a missing file is an error and nothing is created', () => {
      const file = join(dir, 'secrets.key');
      expect(() => loadSecretsKeys(fileConfig(file, false))).toThrow(/does not exist/);
      expect(existsSync(file)).toBe(false);
    });
  });
});
