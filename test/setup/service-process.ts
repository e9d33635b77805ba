import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { serviceNodeArgs } from './service-command';

const ROOT = join(__dirname, '..', '..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The service started as a process of its own, as a deployment runs it. */
export interface ServiceProcess {
  url: string;
  output(): string;
  exitCode(): number | null;
  /** Resolves once GET /health/ready answers 200; rejects with the process's output if it exits first. */
  ready(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `node main.js` on a free port with the given environment over the test's own. Variables set
 * to undefined are removed (e.g. a SECRETS_KEY the caller's shell may carry).
 */
export async function startServiceProcess(env: Record<string, string | undefined>): Promise<ServiceProcess> {
  const port = await freePort();
  const merged: Record<string, string | undefined> = { ...process.env, LOG_LEVEL: 'info', DB_POOL_SIZE: '4', ...env, PORT: String(port), HOST: '127.0.0.1' };
  const child: ChildProcess = spawn('node', serviceNodeArgs(), {
    cwd: ROOT,
    env: Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    output: () => output,
    exitCode: () => child.exitCode,
    ready: async () => {
      for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(200)) {
        if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}:\n${output}`);
        // As a TLS-terminating proxy would send it: production (with TRUST_PROXY) answers plain HTTP with a refusal.
        const status = await fetch(`${url}/health/ready`, { headers: { 'X-Forwarded-Proto': 'https' } }).then((r) => r.status, () => 0);
        if (status === 200) return;
      }
      throw new Error(`service not ready after 60 s:\n${output}`);
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const ERROR_LINE = /"level":"(error|fatal)"/;

/**
 * The error lines of a service's output, but for a scheduled job's claim that found a second process's
 * SQLite write under way: a second process on one SQLite file is not a deployment (one writer), and the
 * job is claimed again next period; only these start-up tests run two.
 */
export function errorLines(output: string): string[] {
  return output.split('\n').filter((line) => ERROR_LINE.test(line) && !/"context":"Scheduler".*could not claim: SqliteError: database is locked/.test(line));
}
