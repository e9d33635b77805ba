#!/usr/bin/env node
'use strict';
/*
 * Load benchmark of the session API: `npm run bench [-- --db mysql|sqlite] [--duration N] [--connections N]`.
 *
 * For each database (MariaDB, then SQLite) it creates a fresh database, a merchant and a user (through the
 * CLI), starts `node dist/main.js` on a free loopback port, warms up, then measures with autocannon:
 *   create   POST /v2.22/session, a unique MerchantReference per request
 *   retrieve GET  /v2.22/session/{id}, rotating over a pool of sessions created beforehand
 *   quote    POST /v1/tax/quote, a 3-item quote to US-CA (rates, rounding, one stored row per quote)
 *   checkout POST /v2.22/checkout, signed (HMAC, Timestamp + Nonce), a Visa card, Capture=false: validation,
 *            replay check, tokenization, order + events, simulated authorization
 *   capture  POST /v2.22/capture, signed, of the orders the checkout run authorized (each captured once)
 *   graphql  POST /graphql, a dashboard page: 50 sessions with billing profile and order (+ refunds), rotating
 *            over the 4 pages of a merchant of its own (150 paid sessions, 50 refunds; DataLoader batching;
 *            an answer with errors is a failure)
 * while sampling the service's resident memory. It prints a table and writes bench-results/latest.json.
 *
 * It reports, it does not gate: exit 0 when the runs happened (targets missed or not, non-2xx or not),
 * non-zero only when a service failed to start or a run errored. Everything stays on 127.0.0.1, every
 * phase is time-bounded, and child processes are killed on exit, on failure and on Ctrl-C.
 *
 * Each scenario runs twice by default. First paced at its target rate (e.g. 300 req/s for graphql): the
 * latency the service gives at that throughput, which is what a target "N/s with p99 <= X" asks, and what
 * the verdict judges. Then flat out, every connection sending its next request as soon as the last is
 * answered: the ceiling in req/s, whose latency is mostly time queued behind the other connections (with
 * 32 connections at 600/s the mean is 53 ms by Little's law however fast each request is), so its p99 is
 * shown, not judged. `--rate N` runs only paced at N req/s, `--flat-out` only flat out.
 *
 * Besides latency and throughput it records the service's CPU time per request, which is the figure to
 * compare changes by when other work shares the machine. BENCH_NODE_OPTIONS passes extra node flags to
 * the service, e.g. BENCH_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/prof" for a CPU profile.
 */
const { spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

const ROOT = path.join(__dirname, '..');
const API = '/v2.22';
const HOST = '127.0.0.1';
const MYSQL_ADMIN = { host: HOST, port: 3306, user: 'root', password: '' };
const MYSQL_DATABASE = 'payments_bench';
const MYSQL_POOL_SIZE = '32';
const RETRIEVE_POOL = 200;
const DASHBOARD_SESSIONS = 200;
const WARMUP_SECONDS = 3;
const RSS_SAMPLE_MS = 500;
const STARTUP_TIMEOUT_MS = 90_000;
const CLI_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 10_000;
const TARGETS = {
  retrieve: { rps: 1500, p99Ms: 25 },
  create: { rps: 400, p99Ms: 75 },
  quote: { rps: 800, p99Ms: 50 },
  checkout: { rps: 300, p99Ms: 100 },
  capture: { rps: 300, p99Ms: 100 },
  graphql: { rps: 300, p99Ms: 100 },
  rssMb: 300,
};
/** Variables the service reads: never inherited from the caller's shell, so runs are comparable. */
const APP_VARIABLES = [
  'PORT', 'HOST', 'DATABASE_URL', 'APP_ENV', 'PUBLIC_URL', 'LOG_LEVEL', 'API_VERSIONS', 'SESSION_TTL_SECONDS',
  'CREDENTIAL_CACHE_TTL_SECONDS', 'BODY_LIMIT', 'DB_POOL_SIZE', 'IDEMPOTENCY_TTL_SECONDS',
];
/**
 * What `npm start` gives the service, so the bench runs it the same way: its environment assignments
 * (e.g. the malloc threshold) and its node flags (e.g. its heap ceiling).
 */
const START_WORDS = require(path.join(__dirname, '..', 'package.json')).scripts.start.split(/\s+/);
const START_NODE_FLAGS = START_WORDS.filter((word) => word.startsWith('--'));
const START_ENV = Object.fromEntries(START_WORDS
  .slice(0, START_WORDS.indexOf('node'))
  .map((word) => /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word))
  .filter(Boolean)
  .map(([, name, value]) => [name, value]));

// ---------------------------------------------------------------------------------------------------------
// Command line

function parseCommandLine(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string' },
      duration: { type: 'string', default: '15' },
      connections: { type: 'string', default: '32' },
      only: { type: 'string' },
      instances: { type: 'string', default: '1' },
      rate: { type: 'string' },
      'flat-out': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`usage: npm run bench -- [--db mysql|sqlite] [--duration SECONDS (15)] [--connections N (32)] [--only ${SCENARIO_ORDER.join(',')}] [--instances N (1)] [--rate REQUESTS_PER_SECOND | --flat-out]\n`);
    process.exit(0);
  }
  const integer = (name, min, max) => {
    const value = Number(values[name]);
    if (!/^\d+$/.test(values[name]) || value < min || value > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
    return value;
  };
  const dbs = values.db === undefined ? ['mysql', 'sqlite'] : [values.db === 'mariadb' ? 'mysql' : values.db];
  if (!['mysql', 'sqlite'].includes(dbs[0])) throw new UsageError('--db must be mysql or sqlite');
  const only = values.only === undefined ? SCENARIO_ORDER : values.only.split(',');
  const unknown = only.filter((name) => !SCENARIO_ORDER.includes(name));
  if (values.rate !== undefined && values['flat-out']) throw new UsageError('--rate and --flat-out exclude each other');
  if (unknown.length) throw new UsageError(`--only takes scenarios from ${SCENARIO_ORDER.join(',')}; unknown: ${unknown.join(',')}`);
  if (only.includes('capture') && !only.includes('checkout')) {
    // Capture has nothing to capture without the orders the checkout run authorizes.
    process.stderr.write('capture captures the orders the checkout run authorizes: running checkout too\n');
    only.push('checkout');
  }
  return {
    dbs,
    duration: integer('duration', 1, 600),
    connections: integer('connections', 1, 1000),
    instances: integer('instances', 1, 4),
    // Offered load: without it every connection sends its next request as soon as the last one is answered
    // (saturation: the latency is mostly queueing); with it, the latency the service gives at that rate.
    rate: values.rate === undefined ? null : integer('rate', 1, 100_000),
    flatOutOnly: Boolean(values['flat-out']),
    scenarios: SCENARIO_ORDER.filter((name) => only.includes(name)),
  };
}

class UsageError extends Error {}

/** The measured runs of a scenario: each a rate in req/s, or null for flat out. */
function loadsOf(scenario, options) {
  if (options.rate) return [options.rate];
  if (options.flatOutOnly) return [null];
  // Paced first: capture then takes orders no run has captured yet.
  return [TARGETS[scenario].rps, null];
}

// ---------------------------------------------------------------------------------------------------------
// Children and cleanup: whatever happens, no service or CLI process outlives this script.

const children = new Set();
const cleanups = new Map(); // name -> async function, run once on the way out
let finished = false;

function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

function killAllChildren(signal) {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        child.kill(signal);
      } catch {
        // already gone
      }
    }
  }
}

async function runCleanups() {
  for (const [name, cleanup] of [...cleanups]) {
    cleanups.delete(name);
    try {
      await withTimeout(cleanup(), 10_000, `cleanup ${name}`);
    } catch (error) {
      log(`warning: cleanup ${name} failed: ${messageOf(error)}`);
    }
  }
}

async function abort(reason, code) {
  if (finished) return;
  finished = true;
  log(`\n${reason}: stopping the services and cleaning up`);
  killAllChildren('SIGKILL');
  await runCleanups();
  process.exit(code);
}

process.on('exit', () => killAllChildren('SIGKILL'));
process.on('SIGINT', () => void abort('interrupted', 130));
process.on('SIGTERM', () => void abort('terminated', 143));
process.on('beforeExit', () => {
  // The event loop emptied while main() still awaited something: never exit 0 by accident.
  if (!finished) {
    log('error: benchmark stalled');
    process.exitCode = 1;
  }
});

// ---------------------------------------------------------------------------------------------------------
// Small helpers

function log(line) {
  process.stderr.write(`${line}\n`);
}

function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${Math.round(ms / 1000)} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function baseEnv(overrides) {
  const env = { ...process.env };
  for (const name of APP_VARIABLES) delete env[name];
  return { ...env, ...overrides };
}

/** Keeps the last lines a child wrote, to show when it fails. */
function tailOf(stream, limit = 40) {
  const tail = { lines: [], total: 0, partial: '' };
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const parts = (tail.partial + chunk).split('\n');
    tail.partial = parts.pop();
    for (const line of parts) {
      tail.total++;
      tail.lines.push(line);
      if (tail.lines.length > limit) tail.lines.shift();
    }
  });
  return tail;
}

function tailText(tail) {
  return [...tail.lines, tail.partial].filter(Boolean).map((l) => `    | ${l}`).join('\n');
}

// ---------------------------------------------------------------------------------------------------------
// Build

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

function ensureBuilt() {
  const main = path.join(ROOT, 'dist', 'main.js');
  const built = fs.existsSync(main) ? fs.statSync(main).mtimeMs : 0;
  if (built && built >= newestMtime(path.join(ROOT, 'src'))) return;
  log(built ? 'dist/ is older than src/: building (npx nest build)' : 'dist/main.js is missing: building (npx nest build)');
  const result = spawnSync('npx', ['nest', 'build'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], timeout: 300_000 });
  if (result.status !== 0 || !fs.existsSync(main)) {
    throw new Error(`npx nest build failed (${result.error ? result.error.message : `exit ${result.status ?? result.signal}`})`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Databases

function mysql() {
  return require(path.join(ROOT, 'node_modules', 'mysql2', 'promise'));
}

async function mysqlAdmin(sql) {
  const connection = await mysql().createConnection({ ...MYSQL_ADMIN, connectTimeout: 10_000 });
  try {
    for (const statement of sql) await connection.query(statement);
  } finally {
    await connection.end();
  }
}

/** Returns { url, drop } for a fresh, empty database of that kind. */
async function freshDatabase(kind) {
  if (kind === 'mysql') {
    await mysqlAdmin([
      `DROP DATABASE IF EXISTS \`${MYSQL_DATABASE}\``,
      `CREATE DATABASE \`${MYSQL_DATABASE}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    ]);
    return {
      url: `mysql://${MYSQL_ADMIN.user}@${MYSQL_ADMIN.host}:${MYSQL_ADMIN.port}/${MYSQL_DATABASE}`,
      label: `MariaDB ${MYSQL_DATABASE} (pool ${MYSQL_POOL_SIZE})`,
      env: { DB_POOL_SIZE: MYSQL_POOL_SIZE },
      drop: () => mysqlAdmin([`DROP DATABASE IF EXISTS \`${MYSQL_DATABASE}\``]),
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payments-bench-'));
  const file = path.join(dir, 'bench.sqlite');
  return {
    url: `sqlite:${file}`,
    label: `SQLite ${file}`,
    env: {},
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

// ---------------------------------------------------------------------------------------------------------
// CLI and service processes

/** Runs `node scripts/cli.js ...args` and parses the one JSON line it prints. */
function runCli(args, env) {
  return new Promise((resolve, reject) => {
    const child = track(spawn(process.execPath, [path.join(ROOT, 'scripts', 'cli.js'), ...args], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    }));
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), CLI_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const line = stdout.trim().split('\n').pop();
      if (code !== 0) return reject(new Error(`cli ${args.slice(0, 2).join(' ')} failed (${code ?? signal}): ${stderr.trim() || stdout.trim()}`));
      try {
        resolve(JSON.parse(line));
      } catch {
        reject(new Error(`cli ${args.slice(0, 2).join(' ')} printed no JSON line: ${stdout.trim()}`));
      }
    });
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function httpRequest(port, method, pathname, { headers = {}, body, agent, timeoutMs = 5000 } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    const request = http.request(
      {
        host: HOST,
        port,
        method,
        path: pathname,
        agent,
        headers: payload ? { 'content-type': 'application/json', ...headers, 'content-length': payload.length } : headers,
        timeout: timeoutMs,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode, text }));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`${method} ${pathname} timed out`)));
    request.on('error', reject);
    request.end(payload);
  });
}

/** Starts `node dist/main.js` bound to loopback and resolves once it answers HTTP. */
async function startService(database) {
  const port = await freePort();
  const env = baseEnv({
    ...START_ENV,
    PORT: String(port),
    HOST, // loopback only: the benchmark never exposes the service
    APP_ENV: 'sandbox',
    LOG_LEVEL: 'warn',
    DATABASE_URL: database.url,
    PUBLIC_URL: `http://${HOST}:${port}`,
    NO_COLOR: '1',
    ...database.env,
  });
  const extra = process.env.BENCH_NODE_OPTIONS ? process.env.BENCH_NODE_OPTIONS.split(/\s+/).filter(Boolean) : [];
  const child = track(spawn(process.execPath, [...START_NODE_FLAGS, ...extra, path.join(ROOT, 'dist', 'main.js')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  }));
  const output = { stdout: tailOf(child.stdout), stderr: tailOf(child.stderr) };
  let exited = null;
  child.once('exit', (code, signal) => (exited = { code, signal }));
  child.once('error', (error) => (exited = { error }));

  const describeExit = () => {
    const how = exited.error ? exited.error.message : `exit ${exited.code ?? exited.signal}`;
    return `service exited during startup (${how})\n${tailText(output.stderr)}\n${tailText(output.stdout)}`;
  };
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    if (exited) throw new Error(describeExit());
    try {
      // Any HTTP answer means it is listening (the OpenAPI document needs no auth and logs nothing).
      await httpRequest(port, 'GET', '/openapi.json', { timeoutMs: 1000 });
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`service did not answer HTTP within ${STARTUP_TIMEOUT_MS / 1000} s\n${tailText(output.stderr)}`);
      }
      await sleep(200);
    }
  }
  if (exited) throw new Error(describeExit());
  return { child, port, output, exitInfo: () => exited };
}

async function stopService(service) {
  const { child } = service;
  if (child.exitCode !== null || child.signalCode !== null) return service.exitInfo();
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    log('  service ignored SIGTERM for 10 s: SIGKILL');
    child.kill('SIGKILL');
  }, STOP_TIMEOUT_MS);
  const result = await exited;
  clearTimeout(timer);
  return result;
}

// ---------------------------------------------------------------------------------------------------------
// Resident memory (VmRSS, /proc/<pid>/status) and CPU time (/proc/<pid>/stat) of the service

const CLOCK_TICKS = (() => {
  const result = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  return Number(result.stdout) > 0 ? Number(result.stdout) : 100;
})();

/** Share of all CPUs busy over `ms` (from /proc/stat), to tell whether something else loads the machine. */
async function systemBusyPercent(ms) {
  const read = () => {
    const [, ...ticks] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    const idle = ticks[3] + (ticks[4] || 0);
    return { idle, total: ticks.reduce((a, b) => a + b, 0) };
  };
  try {
    const before = read();
    await sleep(ms);
    const after = read();
    const total = after.total - before.total;
    return total > 0 ? Math.round((100 * (total - (after.idle - before.idle))) / total) : null;
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat; null if unreadable. */
function cpuSecondsOf(pid) {
  try {
    // Fields after the ")" that ends the command name: state is field 3, utime 14, stime 15.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** The local MariaDB/MySQL server process, to report its CPU use too (null when not found). */
function databaseServerPid() {
  try {
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (/^(mariadbd|mysqld)$/.test(fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim())) return Number(entry);
      } catch {
        // gone meanwhile
      }
    }
  } catch {
    // no /proc
  }
  return null;
}

class ProcessSampler {
  /** `pid`: one service process or several (instances): RSS is the largest one's, CPU their sum. */
  constructor(pid, databasePid = null) {
    this.pids = Array.isArray(pid) ? pid : [pid];
    this.databasePid = databasePid;
    this.overallMaxKb = 0;
    this.windowMaxKb = 0;
    this.windowStart = this.cpuMark();
    this.timer = setInterval(() => this.sample(), RSS_SAMPLE_MS);
    this.sample();
  }

  sample() {
    for (const pid of this.pids) {
      try {
        const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
        if (!match) continue;
        const kb = Number(match[1]);
        this.overallMaxKb = Math.max(this.overallMaxKb, kb);
        this.windowMaxKb = Math.max(this.windowMaxKb, kb);
      } catch {
        // process gone or no /proc: leave the maxima as they are
      }
    }
  }

  /** CPU seconds (user + system) of the service, of the database server, of this process (the load generator). */
  cpuMark() {
    const own = process.cpuUsage();
    return {
      service: this.pids.map(cpuSecondsOf).reduce((sum, seconds) => (sum === null || seconds === null ? null : sum + seconds), 0),
      database: this.databasePid ? cpuSecondsOf(this.databasePid) : null,
      generator: (own.user + own.system) / 1e6,
      wall: performance.now() / 1000,
    };
  }

  /** Starts a new measurement window and returns the previous one: max RSS in MB, CPU use in % of one core. */
  window() {
    this.sample();
    const mark = this.cpuMark();
    const wall = mark.wall - this.windowStart.wall;
    const percent = (key) => {
      const a = this.windowStart[key];
      const b = mark[key];
      return a === null || b === null || wall <= 0 ? null : Math.round((100 * (b - a)) / wall);
    };
    const result = {
      maxRssMb: this.windowMaxKb / 1024,
      serviceCpuPercent: percent('service'),
      databaseCpuPercent: percent('database'),
      generatorCpuPercent: percent('generator'),
    };
    this.windowMaxKb = 0;
    this.windowStart = mark;
    return result;
  }

  stop() {
    clearInterval(this.timer);
    this.sample();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Requests

let referenceCounter = 0;
const RUN_TAG = crypto.randomBytes(3).toString('hex');

/** The valid body of test/setup/factories.ts sessionBody(), with a MerchantReference unique per request. */
function sessionBody() {
  return {
    MerchantReference: `bench-${RUN_TAG}-${++referenceCounter}-${Math.random().toString(36).slice(2, 8)}`,
    AutoCapture: true,
    CompleteUrl: 'https://shop.example.com/complete?session={SessionId}',
    CancelUrl: 'https://shop.example.com/cart',
    Currency: 'USD',
    Items: [{ Name: 'T-shirt', Amount: 19.99, Quantity: 1 }],
    BillingProfile: {
      Name: 'Jo Doe',
      Email: 'jo@example.com',
      Address: { Street: '1 Main St', City: 'Toronto', Region: 'ON', Country: 'CA', Postcode: 'M5V 2T6' },
    },
  };
}

/** Creates the sessions the retrieve scenario rotates over, 8 at a time. */
async function createSessionPool(port, authorization, size) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const ids = [];
  let next = 0;
  const worker = async () => {
    while (next < size) {
      next++;
      const { status, text } = await httpRequest(port, 'POST', `${API}/session`, {
        headers: { authorization, accept: 'application/json' },
        body: sessionBody(),
        agent,
      });
      if (status !== 201) throw new Error(`creating the retrieve pool: POST ${API}/session answered ${status}: ${text.slice(0, 300)}`);
      ids.push(JSON.parse(text).SessionId);
    }
  };
  try {
    await Promise.all(Array.from({ length: 8 }, worker));
  } finally {
    agent.destroy();
  }
  // Check one round trip end to end before measuring.
  const check = await httpRequest(port, 'GET', `${API}/session/${ids[0]}`, { headers: { authorization } });
  if (check.status !== 200 || JSON.parse(check.text).SessionId !== ids[0]) {
    throw new Error(`GET ${API}/session/${ids[0]} answered ${check.status}: ${check.text.slice(0, 300)}`);
  }
  return ids;
}

/**
 * What a dashboard looks at: the dashboard merchant's sessions, three in four paid through the payment
 * page (AutoCapture, so each has a Processed order) and every third paid order partly refunded, so that
 * the page of 50 sessions reads billing profiles, orders and refunds. Returns the number of orders and refunds.
 */
async function createDashboardData(port, merchant, authorization) {
  const ids = await createSessionPool(port, authorization, DASHBOARD_SESSIONS);
  const card = { Name: 'Jo Doe', Number: '4111111111111111', VerificationCode: '123', Expiry: { Month: 12, Year: 2040 } };
  let orders = 0;
  let refunds = 0;
  for (const [i, sessionId] of ids.entries()) {
    if (i % 4 === 3) continue;
    const paid = await httpRequest(port, 'POST', `/pay/${sessionId}`, { body: { PaymentMethod: 'CARD', Card: card } });
    const outcome = paid.status === 200 ? JSON.parse(paid.text) : null;
    if (outcome?.Outcome !== 'COMPLETED') throw new Error(`paying session ${sessionId} answered ${paid.status}: ${paid.text.slice(0, 300)}`);
    orders++;
    if (orders % 3 !== 0) continue;
    const session = JSON.parse((await httpRequest(port, 'GET', `${API}/session/${sessionId}`, { headers: { authorization } })).text);
    const refund = await httpRequest(port, 'POST', `${API}/refund`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: signedForm(merchant.SigningSecret, { MerchantId: merchant.MerchantId, OrderId: session.Order.OrderId, ReferenceId: `bench-refund-${i}`, Amount: '5.00' }),
    });
    if (refund.status !== 200) throw new Error(`refunding order ${session.Order.OrderId} answered ${refund.status}: ${refund.text.slice(0, 300)}`);
    refunds++;
  }
  return { orders, refunds };
}

/** A 3-item tax quote to California: one taxable line, one tax-included line, one book; a new Reference each time. */
function taxQuoteBody() {
  return {
    Currency: 'USD',
    Reference: `bench-${RUN_TAG}-${++referenceCounter}`,
    Items: [
      { Sku: 'SKU-1', Description: 'T-shirt', Quantity: 2, Amount: 39.98 },
      { Sku: 'SKU-2', Description: 'Cap', TaxIncluded: true, Amount: 23.99 },
      { Sku: 'SKU-3', Description: 'Book', Amount: 12.5, TaxCode: 'PB100000' },
    ],
    ShippingAddress: { Street: '1 Market St', City: 'San Francisco', Region: 'CA', Country: 'US', Postcode: '94105' },
    WarehouseAddress: { Street: '2 Dock Rd', City: 'Reno', Region: 'NV', Country: 'US', Postcode: '89501' },
  };
}

/** A signed Checkout call as the real API's plugins send it: form fields request + signature (+ card). */
function signedForm(secret, payload, card) {
  const text = JSON.stringify({ ...payload, Timestamp: new Date().toISOString(), Nonce: crypto.randomUUID() });
  const fields = { request: text, signature: crypto.createHmac('sha256', secret).update(text, 'utf8').digest('base64') };
  if (card) fields.card = JSON.stringify(card);
  return new URLSearchParams(fields).toString();
}

/** 2 × 10.00 + 5.00 shipping = 25.00 USD by Visa, authorized only (captured in the capture scenario). */
function checkoutPayload(merchantId) {
  return {
    MerchantId: merchantId,
    ReferenceId: `bench-${RUN_TAG}-${++referenceCounter}`,
    PaymentMethod: 'VISA',
    ConsumerCurrency: 'USD',
    ConsumerTotal: '25.00',
    Capture: false,
    Items: [{ Sku: 'SKU-1', ConsumerPrice: '10.00', Quantity: '2' }],
    Shipping: { ConsumerPrice: '5.00' },
    Consumer: { Name: 'Jo Doe', Email: 'jo@example.com', Country: 'US' },
  };
}

const BENCH_CARD = { Name: 'Jo Doe', Number: '4111111111111111', VerificationCode: '123', Expiry: { Month: 12, Year: new Date().getUTCFullYear() + 3 } };

/** The OrderId inside a signed form answer (response=<json>&signature=...), or null. */
function orderIdOf(body) {
  try {
    return JSON.parse(new URLSearchParams(String(body)).get('response') ?? 'null')?.OrderId ?? null;
  } catch {
    return null;
  }
}

const SCENARIO_ORDER = ['create', 'retrieve', 'quote', 'checkout', 'capture', 'graphql'];

/** The GraphQL scenario's dashboard query: one page of 50 sessions with what a dashboard shows of each. */
const DASHBOARD_QUERY = `query Dashboard($after: String) { sessions(first: 50, after: $after) { edges { cursor node {
  id merchantReference state currency createdAt totalAmount { amount currency } billingProfile { name email country }
  order { id state total { amount currency } captureDeadline refunds { id state amount { amount currency } } } } }
  pageInfo { hasNextPage endCursor } } }`;

/**
 * The `after` values of every page of the merchant's sessions (null: the first page), checked once: each
 * page must answer 50 sessions (the last one fewer) without errors.
 */
async function dashboardCursors(port, authorization, maxPages = 40) {
  const cursors = [];
  let after = null;
  for (let page = 0; page < maxPages; page++) {
    cursors.push(after);
    const { status, text } = await httpRequest(port, 'POST', '/graphql', { headers: { authorization }, body: { query: DASHBOARD_QUERY, variables: { after } } });
    const body = status === 200 ? JSON.parse(text) : null;
    if (!body || body.errors || !body.data.sessions.edges.length) throw new Error(`POST /graphql answered ${status}: ${text.slice(0, 300)}`);
    if (!body.data.sessions.pageInfo.hasNextPage) break;
    after = body.data.sessions.pageInfo.endCursor;
  }
  return cursors;
}

const SCENARIOS = {
  create: (authorization) => ({
    method: 'POST',
    path: `${API}/session`,
    headers: { authorization, 'content-type': 'application/json', accept: 'application/json' },
    // Called for every request: a new body each time, so no MerchantReference repeats.
    setupRequest: (request) => {
      request.body = JSON.stringify(sessionBody());
      return request;
    },
  }),
  retrieve: (authorization, ids) => {
    let next = 0;
    return {
      method: 'GET',
      path: `${API}/session/${ids[0]}`,
      headers: { authorization, accept: 'application/json' },
      setupRequest: (request) => {
        request.path = `${API}/session/${ids[next++ % ids.length]}`;
        return request;
      },
    };
  },
  checkout: (authorization, ids, merchant) => ({
    method: 'POST',
    path: `${API}/checkout`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    setupRequest: (request) => {
      request.body = signedForm(merchant.SigningSecret, checkoutPayload(merchant.MerchantId), BENCH_CARD);
      return request;
    },
    // Authorized orders wait for the capture scenario.
    onOrder: (orderId) => merchant.authorized.push(orderId),
  }),
  capture: (authorization, ids, merchant) => ({
    method: 'POST',
    path: `${API}/capture`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    // Each authorized order once; should the run outlast them, repeats answer from the Processed fast path.
    setupRequest: (request) => {
      const orderId = merchant.authorized[merchant.captureNext++ % Math.max(1, merchant.authorized.length)];
      request.body = signedForm(merchant.SigningSecret, { MerchantId: merchant.MerchantId, OrderId: orderId });
      return request;
    },
  }),
  graphql: (authorization, ids, merchant) => {
    let next = 0;
    return {
      method: 'POST',
      path: '/graphql',
      headers: { authorization: merchant.dashboardAuthorization, 'content-type': 'application/json', accept: 'application/json' },
      setupRequest: (request) => {
        const after = merchant.dashboardCursors[next++ % merchant.dashboardCursors.length];
        request.body = JSON.stringify({ query: DASHBOARD_QUERY, variables: { after } });
        return request;
      },
      // GraphQL reports errors in a 200 answer.
      failedBody: (body) => String(body).includes('"errors"'),
    };
  },
  quote: (authorization) => ({
    method: 'POST',
    path: '/v1/tax/quote',
    headers: { authorization, 'content-type': 'application/json', accept: 'application/json' },
    setupRequest: (request) => {
      request.body = JSON.stringify(taxQuoteBody());
      return request;
    },
  }),
};

/** One autocannon run; non-2xx answers are counted by autocannon, a few of their bodies kept here. */
/**
 * With several instances, one autocannon per instance (connections split between them), run at once
 * and merged: totals and rates add up; p99 and max are the worst instance's (a conservative merge).
 */
async function runAutocannon({ ports, ...run }) {
  if (ports.length === 1) return runAutocannonOn({ ...run, port: ports[0] });
  const each = Math.max(1, Math.round(run.connections / ports.length));
  const rate = run.rate && Math.max(1, Math.round(run.rate / ports.length));
  const runs = await Promise.all(ports.map((port) => runAutocannonOn({ ...run, port, connections: each, rate })));
  const results = runs.map((r) => r.result);
  const total = results.reduce((sum, r) => sum + r.requests.total, 0);
  const weighted = (pick) => (total ? results.reduce((sum, r) => sum + pick(r) * r.requests.total, 0) / total : 0);
  const statusCodeStats = {};
  for (const r of results) {
    for (const [code, { count }] of Object.entries(r.statusCodeStats ?? {})) statusCodeStats[code] = { count: (statusCodeStats[code]?.count ?? 0) + Number(count) };
  }
  const result = {
    connections: results.reduce((sum, r) => sum + r.connections, 0),
    duration: Math.max(...results.map((r) => r.duration)),
    requests: { total, average: results.reduce((sum, r) => sum + r.requests.average, 0) },
    latency: {
      average: weighted((r) => r.latency.average),
      p50: weighted((r) => r.latency.p50),
      p90: Math.max(...results.map((r) => r.latency.p90)),
      p99: Math.max(...results.map((r) => r.latency.p99)),
      max: Math.max(...results.map((r) => r.latency.max)),
    },
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    timeouts: results.reduce((sum, r) => sum + r.timeouts, 0),
    statusCodeStats,
    generatorLateMs: run.rate ? Math.max(...results.map((r) => r.generatorLateMs)) : undefined,
  };
  const failures = { samples: runs.flatMap((r) => r.failures.samples).slice(0, 5), byStatus: {}, bodyErrors: 0 };
  for (const r of runs) {
    for (const [status, count] of Object.entries(r.failures.byStatus)) failures.byStatus[status] = (failures.byStatus[status] ?? 0) + count;
    failures.bodyErrors += r.failures.bodyErrors ?? 0;
  }
  return { result, failures };
}

/**
 * --rate: an open load at a constant rate, as wrk2 makes it. Request i is due at start + i / rate and its
 * latency counts from then, so a service that falls behind shows its queue in the figures. (autocannon's own
 * rate option sends each connection's quota for the second in a burst, then pads its histogram.)
 */
async function runPacedOn({ port, scenario, authorization, ids, merchant, connections, duration, rate }) {
  const { onOrder, failedBody, setupRequest, ...definition } = SCENARIOS[scenario](authorization, ids, merchant);
  // Idle sockets are closed after 4 s, before the service's 5 s keep-alive timeout closes them: else a
  // request sent on a socket the service is closing at that moment fails with ECONNRESET (the agent
  // reuses its most recent sockets first, so at a low rate the others sit idle).
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections, timeout: 4000 });
  const failures = { samples: [], byStatus: {}, bodyErrors: 0 };
  const latencies = [];
  const statusCodeStats = {};
  let errors = 0;
  let timeouts = 0;
  const fail = (key, sample) => {
    failures.byStatus[key] = (failures.byStatus[key] ?? 0) + 1;
    if (failures.samples.length < 5) failures.samples.push(sample);
  };

  const send = (due) =>
    new Promise((resolve) => {
      const request = setupRequest ? setupRequest({ ...definition, headers: { ...definition.headers } }) : definition;
      const body = request.body === undefined ? undefined : Buffer.from(request.body);
      const headers = body ? { ...request.headers, 'content-length': body.length } : request.headers;
      const outgoing = http.request({ host: HOST, port, method: request.method, path: request.path, headers, agent, timeout: 10_000 }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => {
          latencies.push(performance.now() - due);
          const status = response.statusCode;
          statusCodeStats[status] = { count: (statusCodeStats[status]?.count ?? 0) + 1 };
          if (status < 200 || status >= 300) fail(status, `${status} ${text.slice(0, 300)}`);
          else if (failedBody?.(text)) {
            failures.bodyErrors++;
            if (failures.samples.length < 5) failures.samples.push(`${status} ${text.slice(0, 300)}`);
          } else if (onOrder) {
            const orderId = orderIdOf(text);
            if (orderId) onOrder(orderId);
          }
          resolve();
        });
      });
      outgoing.on('timeout', () => {
        timeouts++;
        outgoing.destroy(new Error('timed out'));
      });
      outgoing.on('error', (error) => {
        errors++;
        fail('error', String(error.message));
        resolve();
      });
      outgoing.end(body);
    });

  const started = performance.now();
  const total = Math.round(rate * duration);
  const dueAt = (i) => started + (i * 1000) / rate;
  const inFlight = [];
  let generatorLateMs = 0; // how late this process itself sent a request (a stall here, not in the service)
  for (let next = 0; next < total; ) {
    while (next < total && dueAt(next) <= performance.now()) {
      generatorLateMs = Math.max(generatorLateMs, performance.now() - dueAt(next));
      inFlight.push(send(dueAt(next++)));
    }
    if (next < total) await sleep(Math.max(0, dueAt(next) - performance.now()));
  }
  await Promise.all(inFlight);
  const elapsedSeconds = (performance.now() - started) / 1000;
  agent.destroy();

  latencies.sort((a, b) => a - b);
  const percentile = (q) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)] : 0);
  const non2xx = Object.entries(statusCodeStats).reduce((sum, [code, { count }]) => sum + (code >= 200 && code < 300 ? 0 : count), 0);
  const result = {
    connections,
    duration: elapsedSeconds,
    requests: { total: latencies.length, average: latencies.length / elapsedSeconds },
    latency: {
      average: latencies.reduce((sum, value) => sum + value, 0) / Math.max(1, latencies.length),
      p50: percentile(0.5),
      p90: percentile(0.9),
      p99: percentile(0.99),
      max: latencies.at(-1) ?? 0,
    },
    non2xx,
    errors,
    timeouts,
    statusCodeStats,
    generatorLateMs,
  };
  return { result, failures };
}

function runAutocannonOn(run) {
  if (run.rate) return runPacedOn(run);
  const { port, scenario, authorization, ids, merchant, connections, duration } = run;
  const autocannon = require('autocannon');
  const failures = { samples: [], byStatus: {} };
  const { onOrder, failedBody, ...definition } = SCENARIOS[scenario](authorization, ids, merchant);
  const request = {
    ...definition,
    onResponse: (status, body) => {
      if (status >= 200 && status < 300 && failedBody?.(body)) {
        failures.bodyErrors = (failures.bodyErrors ?? 0) + 1;
        if (failures.samples.length < 5) failures.samples.push(`${status} ${String(body).slice(0, 300)}`);
        return;
      }
      if (status >= 200 && status < 300) {
        if (onOrder) {
          const orderId = orderIdOf(body);
          if (orderId) onOrder(orderId);
        }
        return;
      }
      failures.byStatus[status] = (failures.byStatus[status] ?? 0) + 1;
      if (failures.samples.length < 5) failures.samples.push(`${status} ${String(body).slice(0, 300)}`);
    },
  };
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `http://${HOST}:${port}`,
        connections,
        duration,
        timeout: 10,
        requests: [request],
      },
      (error, result) => (error ? reject(error) : resolve({ result, failures })),
    );
  });
}

// ---------------------------------------------------------------------------------------------------------
// One database target

async function benchTarget(kind, options) {
  const rows = [];
  const target = { db: kind, label: null, machineBusyBeforePercent: null, startupMs: null, rows, serviceExit: null, error: null, overallMaxRssMb: null };
  let service = null;
  const extraServices = [];
  let sampler = null;
  const dbCleanupName = `${kind} database`;
  try {
    log(`\n=== ${kind === 'mysql' ? 'MariaDB' : 'SQLite'} ===`);
    target.machineBusyBeforePercent = await systemBusyPercent(2000);
    if (target.machineBusyBeforePercent !== null) {
      const busy = target.machineBusyBeforePercent >= 15;
      log(`  CPU busy before starting: ${target.machineBusyBeforePercent}% of ${os.cpus().length} CPUs` +
        (busy ? ' -- WARNING: something else is loading this machine, the figures will be low and noisy' : ''));
    }
    const database = await freshDatabase(kind);
    cleanups.set(dbCleanupName, database.drop);
    target.label = database.label;
    log(`  database: ${database.label}`);

    const cliEnv = baseEnv({ DATABASE_URL: database.url, APP_ENV: 'sandbox', LOG_LEVEL: 'warn', ...database.env });
    const merchant = await runCli(['merchant', 'create', '--name', `Bench ${RUN_TAG}`], cliEnv);
    merchant.authorized = [];
    merchant.captureNext = 0;
    const username = `bench-${RUN_TAG}`;
    const password = crypto.randomBytes(18).toString('base64url');
    await runCli(['user', 'create', '--username', username, `--password=${password}`, '--merchant', merchant.MerchantId], cliEnv);
    const authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
    log(`  merchant ${merchant.MerchantId}, user ${username}`);

    const started = Date.now();
    service = await startService(database);
    cleanups.set(`${kind} service`, () => stopService(service));
    target.startupMs = Date.now() - started;
    log(`  service pid ${service.child.pid} on http://${HOST}:${service.port} (answered after ${target.startupMs} ms)`);
    // More instances on the same database (started after the first applied the migrations).
    for (let i = 1; i < options.instances; i++) {
      const extra = await startService(database);
      extraServices.push(extra);
      cleanups.set(`${kind} service ${i}`, () => stopService(extra));
      log(`  instance ${i + 1}: pid ${extra.child.pid} on http://${HOST}:${extra.port}`);
    }
    const services = [service, ...extraServices];
    sampler = new ProcessSampler(services.map((s) => s.child.pid), kind === 'mysql' ? databaseServerPid() : null);

    const ids = await createSessionPool(service.port, authorization, RETRIEVE_POOL);
    if (options.scenarios.includes('graphql')) {
      // A merchant of its own, so that the sessions the create scenario adds do not change the pages.
      const dashboard = await runCli(['merchant', 'create', '--name', `Bench dashboard ${RUN_TAG}`], cliEnv);
      await runCli(['user', 'create', '--username', `${username}-dashboard`, `--password=${password}`, '--merchant', dashboard.MerchantId], cliEnv);
      merchant.dashboardAuthorization = `Basic ${Buffer.from(`${username}-dashboard:${password}`).toString('base64')}`;
      const { orders, refunds } = await createDashboardData(service.port, dashboard, merchant.dashboardAuthorization);
      merchant.dashboardCursors = await dashboardCursors(service.port, merchant.dashboardAuthorization);
      log(`  the graphql scenario pages over ${merchant.dashboardCursors.length} pages of 50 sessions (${orders} orders, ${refunds} refunds)`);
    }
    log(`  created ${ids.length} sessions for the retrieve pool`);

    const base = { ports: services.map((s) => s.port), authorization, ids, merchant, connections: options.connections };
    const warmup = Math.min(WARMUP_SECONDS, options.duration);
    const check = await httpRequest(service.port, 'POST', '/v1/tax/quote', { headers: { authorization }, body: taxQuoteBody() });
    if (check.status !== 201 || !(JSON.parse(check.text).TaxAmount > 0)) {
      throw new Error(`POST /v1/tax/quote answered ${check.status}: ${check.text.slice(0, 300)}`);
    }
    const measure = async (scenario, rate) => {
      await sleep(1000);
      log(`  measuring ${scenario}: ${options.connections} connections${rate ? ` offering ${rate} req/s` : ' flat out'} for ${options.duration} s ...`);
      sampler.window();
      const { result, failures } = await runAutocannon({ ...base, rate, scenario, duration: options.duration });
      const row = toRow(kind, scenario, rate, result, failures, sampler.window());
      rows.push(row);
      log(`    ${row.requestsPerSecond} req/s, p50 ${row.latencyMs.p50} ms, p99 ${row.latencyMs.p99} ms, ` +
        `${row.non2xx} non-2xx, ${row.errors} errors, max RSS ${row.maxRssMb} MB, ` +
        `CPU % of one core: service ${row.serviceCpuPercent} (${row.serviceCpuMsPerRequest} ms per request)` +
        (row.databaseServerCpuPercent === null ? '' : `, mariadbd ${row.databaseServerCpuPercent}`) +
        `, load generator ${row.generatorCpuPercent}` +
        (row.generatorLateMs === null ? '' : `, sent up to ${row.generatorLateMs} ms late`));
      for (const sample of failures.samples) log(`    failed: ${sample}`);
      for (const running of [service, ...extraServices]) {
        if (running.exitInfo()) throw new Error(`service exited during the ${scenario} run\n${tailText(running.output.stderr)}`);
      }
    };
    for (const scenario of options.scenarios) {
      // Warmed up right before its own runs, not a minute earlier with the others.
      const { result } = await runAutocannon({ ...base, rate: loadsOf(scenario, options)[0], scenario, duration: warmup });
      log(`  warm-up ${scenario}: ${Math.round(result.requests.average)} req/s, ${result.non2xx} non-2xx, ${result.errors} errors`);
      // Capture takes the authorized orders in turn (captureNext), warm-up included: none twice.
      for (const rate of loadsOf(scenario, options)) await measure(scenario, rate);
    }
  } catch (error) {
    target.error = messageOf(error);
    log(`  ERROR: ${target.error}`);
  } finally {
    if (sampler) {
      sampler.stop();
      target.overallMaxRssMb = round1(sampler.overallMaxKb / 1024);
    }
    for (const [i, extra] of extraServices.entries()) {
      cleanups.delete(`${kind} service ${i + 1}`);
      await stopService(extra);
    }
    if (service) {
      cleanups.delete(`${kind} service`);
      target.serviceExit = await stopService(service);
      const logged = service.output.stderr.total + service.output.stdout.total;
      if (logged > 0) log(`  the service wrote ${logged} log lines; last ones:\n${tailText(service.output.stderr) || tailText(service.output.stdout)}`);
    }
    if (cleanups.has(dbCleanupName)) {
      const drop = cleanups.get(dbCleanupName);
      cleanups.delete(dbCleanupName);
      try {
        await withTimeout(drop(), 10_000, 'dropping the database');
        log(`  dropped the bench database`);
      } catch (error) {
        log(`  warning: could not drop the bench database: ${messageOf(error)}`);
      }
    }
  }
  return target;
}

function round1(value) {
  return Math.round(value * 10) / 10;
}

function toRow(db, scenario, offeredRate, result, failures, { maxRssMb, serviceCpuPercent, databaseCpuPercent, generatorCpuPercent }) {
  const goal = TARGETS[scenario];
  const row = {
    db,
    scenario,
    connections: result.connections,
    offeredRequestsPerSecond: offeredRate,
    durationSeconds: round1(result.duration),
    requestsTotal: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average),
    latencyMs: {
      average: round1(result.latency.average),
      p50: round1(result.latency.p50),
      p90: round1(result.latency.p90),
      p99: round1(result.latency.p99),
      max: round1(result.latency.max),
    },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, Number(count)])),
    non2xxSamples: failures.samples,
    maxRssMb: round1(maxRssMb),
    serviceCpuPercent,
    // CPU per request hardly depends on what else runs on the machine: the figure to compare changes by.
    serviceCpuMsPerRequest: serviceCpuPercent === null || !result.requests.total
      ? null
      : Math.round((serviceCpuPercent * 10 * result.duration * 1000) / result.requests.total) / 1000,
    databaseServerCpuPercent: databaseCpuPercent,
    generatorCpuPercent,
    // Paced runs: the most this process sent a request after it was due (its own stall, e.g. GC).
    generatorLateMs: result.generatorLateMs === undefined ? null : round1(result.generatorLateMs),
    target: { requestsPerSecond: goal.rps, p99Ms: goal.p99Ms, maxRssMb: TARGETS.rssMb },
  };
  const misses = [];
  // Paced: the target rate must be served (1 % slack for the last requests' tail) within the p99.
  // Flat out: the ceiling must reach the rate; its p99 is queueing of the bench's own making.
  if (row.requestsPerSecond < goal.rps * (offeredRate ? 0.99 : 1)) misses.push('req/s');
  if (offeredRate && row.latencyMs.p99 > goal.p99Ms) misses.push('p99');
  if (row.maxRssMb > TARGETS.rssMb) misses.push('RSS');
  row.meetsTargets = misses.length === 0;
  row.missed = misses;
  // Answers with an error in a 2xx body (GraphQL) count as errors too.
  row.bodyErrors = failures.bodyErrors ?? 0;
  row.hasErrors = row.non2xx > 0 || row.errors > 0 || row.bodyErrors > 0;
  return row;
}

// ---------------------------------------------------------------------------------------------------------
// Report

function table(headers, lines) {
  const widths = headers.map((h, i) => Math.max(h.length, ...lines.map((l) => String(l[i]).length)));
  const numeric = headers.map((_, i) => lines.every((l) => /^[\d.,]+$/.test(String(l[i]))));
  const format = (cells) => cells.map((c, i) => (numeric[i] ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i]))).join('  ');
  return [format(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format)].join('\n');
}

function report(targets, options) {
  const lines = [];
  for (const target of targets) {
    for (const row of target.rows) {
      const verdict = row.hasErrors
        ? `ERRORS (${row.non2xx} non-2xx, ${row.errors} errors${row.bodyErrors ? `, ${row.bodyErrors} answers with errors` : ''})`
        : row.meetsTargets ? 'meets targets' : `below target (${row.missed.join(', ')})`;
      lines.push([
        row.db === 'mysql' ? 'mariadb' : 'sqlite',
        row.scenario,
        row.offeredRequestsPerSecond ? `${row.offeredRequestsPerSecond}/s` : 'flat out',
        row.connections,
        row.durationSeconds,
        row.requestsPerSecond.toLocaleString('en-US'),
        row.latencyMs.p50,
        row.latencyMs.p99,
        row.non2xx,
        row.errors,
        row.maxRssMb,
        row.serviceCpuPercent ?? '?',
        row.serviceCpuMsPerRequest ?? '?',
        row.databaseServerCpuPercent ?? '-',
        row.offeredRequestsPerSecond ? `p99<=${row.target.p99Ms} at ${row.target.requestsPerSecond}/s` : `>=${row.target.requestsPerSecond} req/s`,
        verdict,
      ]);
    }
    if (target.error) lines.push([target.db === 'mysql' ? 'mariadb' : 'sqlite', 'FAILED', '', '', '', '', '', '', '', '', '', '', '', '', '', target.error.split('\n')[0]]);
  }
  const out = [
    '',
    `Benchmark (${options.instances > 1 ? `${options.instances} instances on one database, ` : ""}${options.connections} connections, ${options.duration} s per run, node ${process.version}, ${os.cpus().length} CPUs; load generator, service and database share this machine)` +
      (process.env.BENCH_NODE_OPTIONS ? `\nService node flags: ${process.env.BENCH_NODE_OPTIONS}` : ''),
    table(['db', 'scenario', 'load', 'conns', 'dur s', 'req/s avg', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'max RSS MB', 'svc CPU %', 'svc CPU ms/req', 'db CPU %', 'target', 'result'], lines),
    '',
    `Targets: ${SCENARIO_ORDER.map((name) => `${name} >= ${TARGETS[name].rps.toLocaleString('en-US')}/s with p99 <= ${TARGETS[name].p99Ms} ms`).join('; ')}; ` +
      `service RSS <= ${TARGETS.rssMb} MB.`,
    'load = offered: paced at a fixed rate (the latency at that throughput, judged against the p99 target), or flat out',
    '(each connection sends again once answered: the ceiling in req/s; its p99 is queueing behind the other connections, not judged).',
    'svc CPU % / db CPU % = CPU time of the service / of mariadbd during the run, in % of one core (the service runs its JavaScript on one);',
    'svc CPU ms/req = service CPU time per request, the figure least disturbed by other load when comparing changes.',
  ];
  const busy = targets.filter((t) => t.machineBusyBeforePercent >= 15);
  if (busy.length) {
    out.push(`WARNING: the machine was already ${busy.map((t) => `${t.machineBusyBeforePercent}%`).join(' / ')} busy before ` +
      `${busy.map((t) => t.db).join(' / ')} started: other work competed for the CPUs, treat those figures as a lower bound.`);
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

function writeResults(targets, options) {
  const dir = path.join(ROOT, 'bench-results');
  fs.mkdirSync(dir, { recursive: true });
  let commit = null;
  const git = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  if (git.status === 0) commit = git.stdout.trim();
  const file = path.join(dir, 'latest.json');
  const document = {
    finishedAt: new Date().toISOString(),
    commit,
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? null,
    options,
    serviceNodeOptions: process.env.BENCH_NODE_OPTIONS || null,
    targets: TARGETS,
    results: targets,
  };
  fs.writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
  process.stdout.write(`Results written to ${path.relative(ROOT, file)}\n`);
}

// ---------------------------------------------------------------------------------------------------------

async function main() {
  let options;
  try {
    options = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    log(`error: ${messageOf(error)}\nusage: npm run bench -- [--db mysql|sqlite] [--duration SECONDS] [--connections N] [--only SCENARIOS] [--instances N] [--rate N | --flat-out]`);
    return 2;
  }
  // A hard bound on the whole run, whatever hangs.
  const budgetMs = options.dbs.length * (2 * CLI_TIMEOUT_MS + options.instances * STARTUP_TIMEOUT_MS + (SCENARIO_ORDER.length * (2 * options.duration + WARMUP_SECONDS + 2) + 60) * 1000) + 300_000;
  setTimeout(() => void abort(`error: the benchmark exceeded its ${Math.round(budgetMs / 1000)} s budget`, 1), budgetMs).unref();

  ensureBuilt();
  const targets = [];
  for (const kind of options.dbs) {
    if (finished) break;
    targets.push(await benchTarget(kind, options));
  }
  report(targets, options);
  writeResults(targets, options);
  const failed = targets.filter((t) => t.error);
  if (failed.length) log(`\n${failed.length} target(s) failed: ${failed.map((t) => t.db).join(', ')}`);
  return failed.length ? 1 : 0;
}

main().then(
  async (code) => {
    if (finished) return;
    finished = true;
    await runCleanups();
    process.exit(code);
  },
  async (error) => {
    if (finished) return;
    finished = true;
    log(`error: ${error instanceof Error ? error.stack : error}`);
    killAllChildren('SIGKILL');
    await runCleanups();
    process.exit(1);
  },
);
