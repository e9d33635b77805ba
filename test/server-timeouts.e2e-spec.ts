import type { AddressInfo } from 'node:net';
import { connect, Socket } from 'node:net';
import type { Server } from 'node:http';
import { AppConfig } from '../src/common/config/app-config';
import { startTestApp, TestApp } from './setup/test-app';

/** Resolves when the server closes the connection: what it sent, and after how many ms. */
function closed(socket: Socket, started: number): Promise<{ received: string; afterMs: number }> {
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString('latin1')));
  return new Promise((resolve) => {
    socket.on('close', () => resolve({ received, afterMs: Date.now() - started }));
    socket.on('error', () => undefined);
  });
}

describe('HTTP server timeouts', () => {
  it('defaults: 30 s for a whole request, 20 s for its headers, 5 s for an idle kept-alive connection', async () => {
    expect(AppConfig.fromEnvironment({}).httpTimeouts).toEqual({ requestMs: 30_000, headersMs: 20_000, keepAliveMs: 5_000 });
    const t = await startTestApp();
    try {
      const server = t.app.getHttpServer() as Server;
      expect([server.requestTimeout, server.headersTimeout, server.keepAliveTimeout]).toEqual([30_000, 20_000, 5_000]);
    } finally {
      await t.close();
    }
  });

  it('a headers timeout longer than the request timeout stops the start with a message naming both', () => {
    expect(() => AppConfig.fromEnvironment({ HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_HEADERS_TIMEOUT_MS: '6000' })).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS.*HTTP_REQUEST_TIMEOUT_MS/,
    );
    expect(() => AppConfig.fromEnvironment({ HTTP_REQUEST_TIMEOUT_MS: '10' })).toThrow(/HTTP_REQUEST_TIMEOUT_MS/);
    // Only the request timeout set: the headers timeout follows it down.
    expect(AppConfig.fromEnvironment({ HTTP_REQUEST_TIMEOUT_MS: '5000' }).httpTimeouts.headersMs).toBe(5000);
  });

  describe('with short limits, on a listening server', () => {
    let t: TestApp;
    let port: number;
    const open = () => connect(port, '127.0.0.1');

    beforeAll(async () => {
      t = await startTestApp({ HTTP_REQUEST_TIMEOUT_MS: '1000', HTTP_HEADERS_TIMEOUT_MS: '600', HTTP_KEEP_ALIVE_TIMEOUT_MS: '400' });
      await t.app.listen(0, '127.0.0.1');
      port = (t.app.getHttpServer().address() as AddressInfo).port;
    });
    afterAll(async () => {
      await t?.close();
    });

    it('applies the configured values to the server', () => {
      const server = t.app.getHttpServer() as Server;
      expect([server.requestTimeout, server.headersTimeout, server.keepAliveTimeout]).toEqual([1000, 600, 400]);
    });

    it('cuts off a client dribbling its body with 408 once the request timeout has passed', async () => {
      const socket = open();
      const started = Date.now();
      const result = closed(socket, started);
      socket.write('POST /v2.22/session HTTP/1.1\r\nHost: localhost\r\nAuthorization: Basic dTpw\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{');
      const dribble = setInterval(() => socket.writable && socket.write(' '), 100);
      try {
        const { received, afterMs } = await result;
        expect(received).toMatch(/^HTTP\/1\.1 408/);
        expect(afterMs).toBeGreaterThanOrEqual(900);
        expect(afterMs).toBeLessThan(3000);
      } finally {
        clearInterval(dribble);
        socket.destroy();
      }
    });

    it('cuts off a client dribbling its headers (slowloris) once the headers timeout has passed', async () => {
      const socket = open();
      const started = Date.now();
      const result = closed(socket, started);
      socket.write('GET /health/live HTTP/1.1\r\nHost: localhost\r\n');
      let n = 0;
      const dribble = setInterval(() => socket.writable && socket.write(`X-Slow-${n++}: 1\r\n`), 100);
      try {
        const { received, afterMs } = await result;
        expect(received).toMatch(/^HTTP\/1\.1 408/);
        expect(afterMs).toBeGreaterThanOrEqual(500);
        expect(afterMs).toBeLessThan(2500);
      } finally {
        clearInterval(dribble);
        socket.destroy();
      }
    });

    it('answers a request sent at a normal pace, and closes the idle kept-alive connection after the keep-alive timeout', async () => {
      const socket = open();
      const started = Date.now();
      const result = closed(socket, started);
      socket.write('GET /health/live HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
      const { received, afterMs } = await result;
      expect(received).toMatch(/^HTTP\/1\.1 200/);
      expect(received).toContain('"status":"ok"');
      expect(afterMs).toBeGreaterThanOrEqual(300);
      expect(afterMs).toBeLessThan(2000);
    });
  });
});
