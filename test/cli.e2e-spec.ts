import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestApp, TestApp } from './setup/test-app';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

describe('Command line (npm run --silent cli -- …)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const cli = (...args: string[]): Promise<CliResult> => cliWithInput('', ...args);
  const cliWithInput = async (input: string, ...args: string[]): Promise<CliResult> => {
    try {
      const running = run('node', [join(ROOT, 'scripts/cli.js'), ...args], {
        cwd: ROOT,
        env: { ...process.env, ...t.env, LOG_LEVEL: 'silent' },
      });
      running.child.stdin!.end(input);
      const { stdout, stderr } = await running;
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };

  it('merchant create and user create print exactly one JSON line, and the user can call the API', async () => {
    const merchant = await cli('merchant', 'create', '--name', 'Cli Shop', '--remittance-currency', 'EUR', '--notify-url', 'https://shop.example.com/hooks');
    expect(merchant.code).toBe(0);
    expect(merchant.stdout.split('\n')).toHaveLength(2); // one line and its newline
    const created = JSON.parse(merchant.stdout);
    expect(created).toEqual({ MerchantId: expect.stringMatching(/^[0-9a-f-]{36}$/), Name: 'Cli Shop', SigningSecret: expect.any(String) });
    expect(created.SigningSecret.length).toBeGreaterThanOrEqual(40);

    const user = await cli('user', 'create', '--username', 'cli-user', '--password', 'cli-password-1', '--merchant', created.MerchantId);
    expect(user.code).toBe(0);
    expect(JSON.parse(user.stdout)).toEqual({ Username: 'cli-user', MerchantId: created.MerchantId, Role: 'merchant' });

    const res = await t.http().post('/v2.22/session').auth('cli-user', 'cli-password-1').send(
      (await import('./setup/factories')).sessionBody(),
    );
    expect(res.status).toBe(201);
  }, 60_000);

  it('takes a chosen merchant id, and creates readonly and admin users', async () => {
    const id = 'c0ffee00-1234-4abc-8def-0123456789ab';
    const merchant = await cli('merchant', 'create', '--name', 'Fixed', '--id', id);
    expect(JSON.parse(merchant.stdout).MerchantId).toBe(id);
    const readonly = await cli('user', 'create', '--username', 'ro', '--password', 'readonly-pw', '--merchant', id, '--role', 'readonly');
    expect(JSON.parse(readonly.stdout)).toEqual({ Username: 'ro', MerchantId: id, Role: 'readonly' });
    const admin = await cli('user', 'create', '--username', 'root-admin', '--password', 'admin-password', '--role', 'admin');
    expect(JSON.parse(admin.stdout)).toEqual({ Username: 'root-admin', MerchantId: null, Role: 'admin' });
  }, 60_000);

  it('user create --password-stdin takes the password from stdin (first line), never from the command line', async () => {
    const id = 'c0ffee00-1234-4abc-8def-0123456789ac';
    await cli('merchant', 'create', '--name', 'Stdin', '--id', id);
    const user = await cliWithInput('a-password with spaces: and colons\nignored second line\n', 'user', 'create', '--username', 'stdin-user', '--password-stdin', '--merchant', id);
    expect(user.code).toBe(0);
    expect(JSON.parse(user.stdout)).toEqual({ Username: 'stdin-user', MerchantId: id, Role: 'merchant' });
    const res = await t.http().get('/v2.22/session/00000000-0000-4000-8000-000000000000').auth('stdin-user', 'a-password with spaces: and colons');
    expect(res.status).toBe(404);
    expect((await t.http().get('/v2.22/session/00000000-0000-4000-8000-000000000000').auth('stdin-user', 'ignored second line')).status).toBe(401);

    const both = await cliWithInput('another-password\n', 'user', 'create', '--username', 'both', '--password', 'long-enough', '--password-stdin', '--merchant', id);
    expect(both.code).not.toBe(0);
    expect(both.stderr).toMatch(/not both/);
    const empty = await cliWithInput('', 'user', 'create', '--username', 'empty', '--password-stdin', '--merchant', id);
    expect(empty.code).not.toBe(0);
    expect(empty.stderr).toMatch(/--password-stdin/);
  }, 60_000);

  it.each([
    [['merchant', 'create'], /--name is required/],
    [['merchant', 'create', '--name', 'X', '--remittance-currency', 'XAU'], /remittance-currency/],
    [['merchant', 'create', '--name', 'X', '--id', 'not-a-uuid'], /--id: must be a UUID/],
    [['user', 'create', '--username', 'u1', '--password', 'short', '--role', 'admin'], /--password/],
    [['user', 'create', '--username', 'u2', '--password', 'long-enough', '--merchant', '3f2b8a9e-4c1d-4e7a-9b6f-1a2b3c4d5e6f'], /No merchant has this id/],
    [['user', 'create', '--username', 'u3', '--password', 'long-enough'], /needs --merchant/],
    [['merchant', 'delete'], /unknown command/],
    [['merchant', 'create', '--nam', 'X'], /usage/],
  ])('%j fails with a clear message on stderr, nothing on stdout', async (args, message) => {
    const result = await cli(...args);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
  }, 60_000);

  it('refuses a duplicate username', async () => {
    const merchant = JSON.parse((await cli('merchant', 'create', '--name', 'Dup')).stdout);
    expect((await cli('user', 'create', '--username', 'twice', '--password', 'password-1', '--merchant', merchant.MerchantId)).code).toBe(0);
    const again = await cli('user', 'create', '--username', 'twice', '--password', 'password-2', '--merchant', merchant.MerchantId);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/username.*taken/);
  }, 60_000);
});
