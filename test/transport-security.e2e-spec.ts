import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, SecureVersion } from 'node:tls';
import { promisify } from 'node:util';
import { selfSignedCertificate } from './setup/certificates';
import { startTestApp, TestApp } from './setup/test-app';
import { serviceNodeArgs } from './setup/service-command';

const ROOT = join(__dirname, '..');

/** Handshake with exactly one protocol version (and optionally only the given TLS 1.2 ciphers). */
function handshake(port: number, version: SecureVersion, ciphers?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: '127.0.0.1',
      port,
      servername: 'localhost',
      minVersion: version,
      maxVersion: version,
      rejectUnauthorized: false,
      // Let the client offer old protocols at all, so that a refusal comes from the server.
      ciphers: ciphers ?? 'DEFAULT@SECLEVEL=0',
    });
    socket.once('secureConnect', () => {
      resolve(socket.getProtocol() ?? '');
      socket.end();
    });
    socket.once('error', reject);
  });
}

describe('HTTPS served by the service (TLS_CERT_FILE, TLS_KEY_FILE)', () => {
  let t: TestApp;
  let port: number;
  let certDir: string;

  beforeAll(async () => {
    certDir = mkdtempSync(join(tmpdir(), 'payments-tls-'));
    const { certFile, keyFile } = selfSignedCertificate(certDir);
    t = await startTestApp({ TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
    rmSync(certDir, { recursive: true, force: true });
  });

  it.each(['TLSv1.2', 'TLSv1.3'] as SecureVersion[])('accepts %s', async (version) => {
    await expect(handshake(port, version)).resolves.toBe(version);
  });

  it.each(['TLSv1', 'TLSv1.1'] as SecureVersion[])('refuses %s (the server answers with a protocol_version alert)', async (version) => {
    await expect(handshake(port, version)).rejects.toMatchObject({ code: 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION' });
  });

  it('refuses TLS 1.2 without forward secrecy (a static-RSA CBC suite)', async () => {
    await expect(handshake(port, 'TLSv1.2', 'AES128-SHA:@SECLEVEL=0')).rejects.toThrow(/handshake|cipher|alert/i);
  });

  it('answers the API over HTTPS', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      httpsRequest({ host: '127.0.0.1', port, path: '/openapi.json', rejectUnauthorized: false, servername: 'localhost' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .once('error', reject)
        .end();
    });
    expect(status).toBe(200);
  });

  // openssl is required anyway: the test certificate is made with it (test/setup/certificates.ts).
  it('openssl s_client agrees: TLS 1.1 refused, TLS 1.2 and 1.3 negotiated', async () => {
    const sClient = (flag: string) =>
      promisify(execFile)('openssl', ['s_client', '-connect', `127.0.0.1:${port}`, '-servername', 'localhost', flag, '-cipher', 'DEFAULT@SECLEVEL=0'], {
        timeout: 10_000,
      }).then(
        ({ stdout }) => stdout,
        (error: { stdout?: string }) => error.stdout ?? '',
      );
    // s_client prints "New, <protocol>, Cipher is <suite>" for a completed handshake, "New, (NONE)" otherwise.
    expect(await sClient('-tls1_1')).toMatch(/New, \(NONE\), Cipher is \(NONE\)/);
    expect(await sClient('-tls1_2')).toMatch(/New, TLSv1\.2, Cipher is ECDHE-/);
    expect(await sClient('-tls1_3')).toMatch(/New, TLSv1\.3, Cipher is TLS_/);
  }, 30_000);
});

describe('Production refuses plain HTTP', () => {
  const productionEnv = () => ({ APP_ENV: 'production', SECRETS_KEY: randomBytes(32).toString('base64') });

  it('a production start without TLS or a trusted proxy fails and says what is missing', async () => {
    const result = await promisify(execFile)('node', serviceNodeArgs(), {
      cwd: ROOT,
      env: { ...process.env, ...productionEnv(), DATABASE_URL: 'sqlite::memory:' },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/APP_ENV=production needs HTTPS/);
    expect(result.stderr).toMatch(/TLS_CERT_FILE/);
    expect(result.stderr).toMatch(/TRUST_PROXY=1/);
  }, 60_000);

  it('a production start without a secrets key fails and says so', async () => {
    const result = await promisify(execFile)('node', serviceNodeArgs(), {
      cwd: ROOT,
      env: { ...process.env, APP_ENV: 'production', TRUST_PROXY: '1', DATABASE_URL: 'sqlite::memory:', SECRETS_KEY: '', SECRETS_KEY_FILE: '' },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/needs SECRETS_KEY or SECRETS_KEY_FILE/);
  }, 60_000);

  describe('behind a trusted TLS-terminating proxy (TRUST_PROXY=1)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ ...productionEnv(), TRUST_PROXY: '1' });
    });
    afterAll(() => t.close());

    it('refuses a request that did not come over HTTPS, and changes nothing', async () => {
      const res = await t.http().get('/openapi.json');
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ Code: 'HTTPS_REQUIRED', Message: 'HTTPS is required: plain HTTP is refused in production', RequestId: expect.any(String) });
      const post = await t.http().post('/v2.22/session').send({});
      expect(post.status).toBe(403);
      expect(post.body.Code).toBe('HTTPS_REQUIRED');
    });

    it('serves a request the proxy received over HTTPS, with HSTS', async () => {
      const res = await t.http().get('/openapi.json').set('X-Forwarded-Proto', 'https');
      expect(res.status).toBe(200);
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    });
  });

  it('without TRUST_PROXY a forged X-Forwarded-Proto is not believed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payments-tls-'));
    const { certFile, keyFile } = selfSignedCertificate(dir);
    const t = await startTestApp({ ...productionEnv(), TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile });
    try {
      // The app serves HTTPS; supertest speaks to its server directly, so use a plain HTTP listener on the same app.
      const { createServer } = await import('node:http');
      const plain = createServer(t.app.getHttpAdapter().getInstance());
      await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
      const { port } = plain.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/openapi.json`, { headers: { 'X-Forwarded-Proto': 'https' } });
      expect(res.status).toBe(403);
      plain.close();
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
