import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { MerchantService } from '../src/auth/merchant.service';
import { hmac, SigningSecretService } from '../src/auth/signing-secret.service';
import { SigningSecret } from '../src/auth/signing-secret.entity';
import { startTestApp, TestApp } from './setup/test-app';

const ROOT = join(__dirname, '..');

/** Every row of every table as text: what a database dump would show. */
async function dumpDatabase(dataSource: DataSource): Promise<string> {
  const rows: string[] = [];
  for (const entity of dataSource.entityMetadatas) {
    rows.push(JSON.stringify(await dataSource.query(`SELECT * FROM ${entity.tableName}`)));
  }
  return rows.join('\n');
}

describe('Signing secrets at rest and their rotation', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ SECRET_ROTATION_OVERLAP_SECONDS: '3600' });
  });
  afterAll(() => t.close());

  const cli = (...args: string[]) =>
    promisify(execFile)('node', [join(ROOT, 'scripts/cli.js'), ...args], { cwd: ROOT, env: { ...process.env, ...t.env, LOG_LEVEL: 'silent' } }).then(
      ({ stdout }) => JSON.parse(stdout),
    );

  it('a database dump after creating merchants contains no signing secret', async () => {
    const secrets: string[] = [];
    for (let i = 0; i < 3; i++) secrets.push((await t.app.get(MerchantService).create({ name: `Dump ${i}` })).signingSecret);
    secrets.push((await cli('merchant', 'create', '--name', 'Dump via CLI')).SigningSecret);

    const dump = await dumpDatabase(t.dataSource);
    expect(dump).toContain('v1:'); // the sealed values are there...
    for (const secret of secrets) expect(dump).not.toContain(secret); // ...the secrets are not

    if (t.database.kind === 'sqlite') {
      // The raw database files too (the WAL holds recent pages). Scanned by another process: opening and
      // closing the live file here would drop this process's SQLite locks (POSIX fcntl semantics).
      const files = readdirSync(t.database.dir).filter((f) => f.startsWith('test.sqlite')).map((f) => join(t.database.dir, f));
      const found = await promisify(execFile)('grep', ['-a', '-c', '-F', ...secrets.flatMap((s) => ['-e', s]), ...files]).then(
        ({ stdout }) => stdout,
        (error: { code: number; stdout: string }) => (error.code === 1 ? error.stdout : Promise.reject(error)),
      );
      expect(found.trim().split('\n').map((line) => line.split(':').pop())).toEqual(files.map(() => '0'));
    }
  }, 60_000);

  it('the sandbox key file is created with owner-only permissions', () => {
    const file = t.env.SECRETS_KEY_FILE;
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('rotate-secret: the old secret verifies only inside the overlap, the new one signs', async () => {
    const { merchant, signingSecret: oldSecret } = await t.app.get(MerchantService).create({ name: 'Rotating' });
    const service = t.app.get(SigningSecretService);
    const request = JSON.stringify({ MerchantId: merchant.id, Amount: '10.00' });

    const rotated = await cli('merchant', 'rotate-secret', '--merchant', merchant.id);
    expect(rotated.MerchantId).toBe(merchant.id);
    expect(rotated.SigningSecret).not.toBe(oldSecret);
    const until = Date.parse(rotated.PreviousSecretValidUntil);
    expect(until).toBeGreaterThan(Date.now() + 3590_000);
    expect(until).toBeLessThan(Date.now() + 3610_000);

    const now = new Date();
    const later = new Date(until + 1000);
    expect(await service.verify(merchant.id, request, hmac(oldSecret, request), now)).toBe(true);
    expect(await service.verify(merchant.id, request, hmac(rotated.SigningSecret, request), now)).toBe(true);
    expect(await service.verify(merchant.id, request, hmac(oldSecret, request), later)).toBe(false);
    expect(await service.verify(merchant.id, request, hmac(rotated.SigningSecret, request), later)).toBe(true);
    expect(await service.verify(merchant.id, request, hmac('not-the-secret', request), now)).toBe(false);
    expect(await service.verify(merchant.id, `${request} `, hmac(rotated.SigningSecret, request), now)).toBe(false);
    // Responses are signed with the new secret only.
    expect(await service.sign(merchant.id, request)).toBe(hmac(rotated.SigningSecret, request));
  }, 60_000);

  it('rotate-secret refuses an unknown merchant', async () => {
    await expect(cli('merchant', 'rotate-secret', '--merchant', '3f2b8a9e-4c1d-4e7a-9b6f-1a2b3c4d5e6f')).rejects.toMatchObject({
      stderr: expect.stringMatching(/No merchant has this id/),
    });
  }, 60_000);

  it('secrets rotate-key reseals every secret under a new key; the running service keeps working', async () => {
    const { merchant, signingSecret } = await t.app.get(MerchantService).create({ name: 'Key rotation' });
    const repository = t.dataSource.getRepository(SigningSecret);
    const before = await repository.find();

    const result = await cli('secrets', 'rotate-key');
    expect(result).toMatchObject({ KeyId: expect.any(String), PreviousKeyId: expect.any(String), Resealed: before.length });
    expect(result.KeyId).not.toBe(result.PreviousKeyId);
    expect(existsSync(`${t.env.SECRETS_KEY_FILE}.previous`)).toBe(true);
    expect(existsSync(`${t.env.SECRETS_KEY_FILE}.next`)).toBe(false);

    const after = await repository.find();
    for (const row of after) {
      expect(row.secretSealed.split(':')[1]).toBe(result.KeyId);
      expect(row.secretSealed).not.toBe(before.find((b) => b.id === row.id)!.secretSealed);
    }
    // This instance still holds the old key in memory: it reads the key file again and signs as before.
    const text = '{"MerchantId":"x"}';
    expect(await t.app.get(SigningSecretService).sign(merchant.id, text)).toBe(hmac(signingSecret, text));
  }, 60_000);
});
