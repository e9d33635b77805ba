#!/usr/bin/env node
'use strict';
/*
 * Fault drill: `npm run drill [-- --seconds N] [--workers N] [--no-db-restart]`.
 *
 * Two service instances on one fresh MariaDB database take a steady load of session creates (with an
 * Idempotency-Key), signed checkouts with capture, and refunds, each retried with the same key until it
 * is acknowledged. Mid-run one instance is killed with SIGKILL (and started again later), and MariaDB
 * is restarted. Afterwards SQL checks that every acknowledged session, order and refund exists exactly
 * once and that no money moved twice. Loopback only; the drill database is dropped at the end.
 *
 * Restarting MariaDB affects everything else using it on this machine: do not run it during tests.
 */
const { spawn, spawnSync, execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const http = require('node:http');
const net = require('node:net');
const path = require('node:path');
const { parseArgs } = require('node:util');

const ROOT = path.join(__dirname, '..');
const HOST = '127.0.0.1';
const DATABASE = 'payments_drill';
const DATABASE_URL = `mysql://root@${HOST}:3306/${DATABASE}`;
const API = '/v2.22';

const { values: options } = parseArgs({
  options: {
    seconds: { type: 'string', default: '30' },
    workers: { type: 'string', default: '12' },
    'no-db-restart': { type: 'boolean', default: false },
  },
});
const SECONDS = Number(options.seconds);
const WORKERS = Number(options.workers);

const log = (text) => process.stdout.write(`${new Date().toISOString().slice(11, 23)}  ${text}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------------------
// Database and processes

function sql(statement) {
  return execFileSync('mysql', ['--protocol=tcp', '-h', HOST, '-u', 'root', '-N', '-B', '-e', statement], { encoding: 'utf8' }).trim();
}

function mariadbUp() {
  return spawnSync('mysqladmin', ['--protocol=tcp', '-h', HOST, '-u', 'root', 'ping'], { stdio: 'ignore' }).status === 0;
}

async function restartMariadb() {
  log('restarting MariaDB (SIGTERM, then start-stop-daemon)');
  spawnSync('pkill', ['-TERM', '-x', 'mariadbd']);
  // Until the process is gone, not just its socket: start-stop-daemon would take it for "already running".
  const running = () => spawnSync('pgrep', ['-x', 'mariadbd'], { stdio: 'ignore' }).status === 0;
  for (let i = 0; i < 600 && running(); i++) await sleep(100);
  const down = Date.now();
  spawnSync('start-stop-daemon', ['--start', '--oknodo', '--background', '--exec', '/usr/sbin/mariadbd']);
  for (let i = 0; i < 600 && !mariadbUp(); i++) await sleep(100);
  if (!mariadbUp()) throw new Error('MariaDB did not come back');
  log(`MariaDB is back after ${Date.now() - down} ms down`);
}

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function env(extra = {}) {
  return { ...process.env, DATABASE_URL, APP_ENV: 'sandbox', LOG_LEVEL: 'warn', NO_COLOR: '1', DB_POOL_SIZE: '16', ...extra };
}

function cli(...args) {
  return JSON.parse(execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'cli.js'), ...args], { env: env(), encoding: 'utf8' }));
}

const instances = [];

async function startInstance(name, port) {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'main.js')], {
    env: env({ PORT: String(port), HOST, PUBLIC_URL: `http://${HOST}:${port}` }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const instance = { name, port, child, alive: true };
  child.once('exit', () => (instance.alive = false));
  for (let i = 0; i < 300; i++) {
    if (!instance.alive) throw new Error(`instance ${name} exited at start`);
    if ((await request(instance, 'GET', '/health/ready').catch(() => null))?.status === 200) break;
    await sleep(100);
  }
  instances.push(instance);
  return instance;
}

function kill(instance, signal) {
  if (instance.alive) instance.child.kill(signal);
}

// ---------------------------------------------------------------------------------------------------------
// Requests

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function request(instance, method, pathname, { headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const req = http.request({ host: HOST, port: instance.port, method, path: pathname, agent, timeout: 5000, headers: { ...headers, ...(text ? { 'content-length': Buffer.byteLength(text) } : {}) } }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (data += chunk));
      res.on('end', () => resolve({ status: res.statusCode, text: data }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    if (text) req.write(text);
    req.end();
  });
}

function signedForm(secret, payload, card) {
  const text = JSON.stringify(payload);
  const fields = { request: text, signature: crypto.createHmac('sha256', secret).update(text).digest('base64') };
  if (card) fields.card = JSON.stringify(card);
  return new URLSearchParams(fields).toString();
}

const signedAnswer = (text) => JSON.parse(new URLSearchParams(text).get('response') ?? 'null');

const CARD = { Name: 'Drill Shopper', Number: '4111111111111111', VerificationCode: '123', Expiry: { Month: 12, Year: new Date().getUTCFullYear() + 3 } };

/** Every operation the service acknowledged (2xx), by the key the client retried it with. */
const acknowledged = { sessions: new Map(), orders: new Map(), refunds: new Map() };
const counts = { sent: 0, acknowledged: 0, retried: 0, gaveUp: 0, sessionKeys: 0 };

/** How long a client keeps retrying one operation: past the recovery of work a dead instance left. */
const PATIENCE_MS = 180_000;

/**
 * Sends until acknowledged: connection errors, time-outs, 5xx and 409 (the same key still in flight,
 * or held by a request that died until its claim is abandoned) are retried with the same key.
 * `done(answer)` may accept a non-2xx answer as the end (e.g. "this MerchantReference exists").
 */
async function untilAcknowledged(send, done = () => false) {
  const deadline = Date.now() + PATIENCE_MS;
  for (let attempt = 0; Date.now() < deadline; attempt++) {
    const live = instances.filter((instance) => instance.alive);
    const instance = live[(Math.random() * live.length) | 0];
    if (instance) {
      counts.sent++;
      if (attempt > 0) counts.retried++;
      try {
        const answer = await send(instance);
        if ((answer.status >= 200 && answer.status < 300) || done(answer)) {
          counts.acknowledged++;
          return answer;
        }
        if (answer.status < 500 && answer.status !== 409) throw new Error(`refused: ${answer.status} ${answer.text.slice(0, 200)}`);
      } catch (error) {
        if (String(error.message).startsWith('refused')) throw error;
      }
    }
    await sleep(100 + Math.random() * 200);
  }
  counts.gaveUp++;
  return null;
}

async function worker(id, credentials, merchant, stopAt) {
  const authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
  for (let n = 0; Date.now() < stopAt; n++) {
    const key = `drill-${id}-${n}`;
    counts.sessionKeys++;
    // A create committed by an instance that died before answering: its retry finds the reference taken.
    const taken = (answer) => answer.status === 409 && answer.text.includes('DUPLICATE_MERCHANT_REFERENCE_ID');
    const session = await untilAcknowledged((instance) =>
      request(instance, 'POST', `${API}/session`, {
        headers: { authorization, 'content-type': 'application/json', 'idempotency-key': key },
        body: {
          MerchantReference: key,
          AutoCapture: true,
          CompleteUrl: 'https://shop.example/complete',
          CancelUrl: 'https://shop.example/cart',
          Currency: 'USD',
          Items: [{ Name: 'Mug', Amount: 12.5, Quantity: 2 }],
          BillingProfile: { Name: 'Jo Doe', Email: 'jo@example.com', Address: { Street: '1 Main St', City: 'Toronto', Region: 'ON', Country: 'CA', Postcode: 'M5V 2T6' } },
        },
      }),
      taken,
    );
    if (session?.status === 201) acknowledged.sessions.set(key, JSON.parse(session.text).SessionId);
    else if (session) counts.sessionsFoundTaken = (counts.sessionsFoundTaken ?? 0) + 1;

    const checkout = { MerchantId: merchant.MerchantId, ReferenceId: key, PaymentMethod: 'VISA', ConsumerCurrency: 'USD', ConsumerTotal: '25.00', Items: [{ Sku: 'MUG', ConsumerPrice: '12.50', Quantity: '2' }], Consumer: { Name: 'Jo Doe', Email: 'jo@example.com', Country: 'US' } };
    const order = await untilAcknowledged((instance) =>
      request(instance, 'POST', `${API}/checkout`, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: signedForm(merchant.SigningSecret, checkout, CARD) }),
    );
    if (!order) continue;
    const orderId = signedAnswer(order.text).OrderId;
    acknowledged.orders.set(key, orderId);

    const refund = { MerchantId: merchant.MerchantId, OrderId: orderId, ReferenceId: `${key}-refund`, Amount: '10.00' };
    const refunded = await untilAcknowledged((instance) =>
      request(instance, 'POST', `${API}/refund`, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: signedForm(merchant.SigningSecret, refund) }),
    );
    if (refunded) acknowledged.refunds.set(`${key}-refund`, signedAnswer(refunded.text).RefundId);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Checks

function check(name, ok, detail = '') {
  log(`${ok ? 'PASS' : 'FAIL'}  ${name}${detail ? `: ${detail}` : ''}`);
  return ok;
}

function inList(ids) {
  return ids.map((id) => `'${id.replace(/'/g, '')}'`).join(',');
}

function checks() {
  const results = [];
  const db = (statement) => sql(`USE ${DATABASE}; ${statement}`);
  const sessionIds = [...acknowledged.sessions.values()];
  const orderIds = [...acknowledged.orders.values()];
  const refundIds = [...acknowledged.refunds.values()];
  const count = (statement) => Number(db(statement) || 0);

  if (sessionIds.length) results.push(check('every acknowledged session exists once', count(`SELECT COUNT(*) FROM payment_session WHERE id IN (${inList(sessionIds)})`) === sessionIds.length, `${sessionIds.length} acknowledged`));
  results.push(check('no merchant reference has two sessions', count('SELECT COUNT(*) FROM (SELECT merchant_reference FROM payment_session GROUP BY merchant_id, merchant_reference HAVING COUNT(*) > 1) d') === 0));
  results.push(check('every session key the clients sent exists exactly once', count(`SELECT COUNT(DISTINCT merchant_reference) FROM payment_session WHERE merchant_reference LIKE 'drill-%'`) === counts.sessionKeys && count(`SELECT COUNT(*) FROM payment_session WHERE merchant_reference LIKE 'drill-%'`) === counts.sessionKeys, `${counts.sessionKeys} keys, ${counts.sessionsFoundTaken ?? 0} of them answered "reference taken" after an instance died`));
  if (orderIds.length) results.push(check('every acknowledged order exists once, Processed', count(`SELECT COUNT(*) FROM payment_order WHERE id IN (${inList(orderIds)}) AND state = 'Processed'`) === orderIds.length, `${orderIds.length} acknowledged`));
  results.push(check('no order beyond the acknowledged ones', count(`SELECT COUNT(*) FROM payment_order WHERE source = 'checkout' AND reference_id LIKE 'drill-%'`) === orderIds.length));
  results.push(check('no checkout ReferenceId has two orders', count(`SELECT COUNT(*) FROM (SELECT reference_id FROM payment_order WHERE source = 'checkout' GROUP BY merchant_id, reference_id HAVING COUNT(*) > 1) d`) === 0));
  results.push(check('no order was captured twice at the processor', count(`SELECT COUNT(*) FROM (SELECT order_id FROM sandbox_ledger WHERE operation = 'capture' GROUP BY order_id HAVING COUNT(*) > 1) d`) === 0));
  results.push(check('no order attempt was authorized twice', count(`SELECT COUNT(*) FROM (SELECT idempotency_key FROM sandbox_ledger WHERE operation = 'authorize' GROUP BY idempotency_key HAVING COUNT(*) > 1) d`) === 0));
  if (refundIds.length) results.push(check('every acknowledged refund exists once', count(`SELECT COUNT(*) FROM order_refund WHERE id IN (${inList(refundIds)})`) === refundIds.length, `${refundIds.length} acknowledged`));
  results.push(check('no refund was paid twice at the processor', count(`SELECT COUNT(*) FROM (SELECT idempotency_key FROM sandbox_ledger WHERE operation = 'refund' GROUP BY idempotency_key HAVING COUNT(*) > 1) d`) === 0));
  results.push(check('no order refunded more than once per ReferenceId or beyond its total', count(`SELECT COUNT(*) FROM payment_order o WHERE o.refunded_minor > o.total_minor OR o.refunded_minor <> (SELECT COALESCE(SUM(r.amount_minor), 0) FROM order_refund r WHERE r.order_id = o.id AND r.state <> 'Failed')`) === 0));
  results.push(check('no captured order left without its ledger capture', count(`SELECT COUNT(*) FROM payment_order o WHERE o.state = 'Processed' AND NOT EXISTS (SELECT 1 FROM sandbox_ledger l WHERE l.order_id = o.id AND l.operation = 'capture')`) === 0));
  results.push(check('no order left Processing', count(`SELECT COUNT(*) FROM payment_order WHERE state = 'Processing'`) === 0));
  results.push(check('no refund left InProgress', count(`SELECT COUNT(*) FROM order_refund WHERE state = 'InProgress'`) === 0));
  // The outbox is written in the transaction of each change: kills and restarts must neither lose nor repeat an event.
  results.push(check('every Processed order has exactly one ORDER_PROCESSED and one ORDER_AUTHORIZED event', count(`SELECT COUNT(*) FROM payment_order o WHERE o.state = 'Processed' AND ((SELECT COUNT(*) FROM notification_event e WHERE e.resource_id = o.id AND e.type = 'ORDER_PROCESSED') <> 1 OR (SELECT COUNT(*) FROM notification_event e WHERE e.resource_id = o.id AND e.type = 'ORDER_AUTHORIZED') <> 1)`) === 0));
  results.push(check('every Succeeded refund has exactly one REFUND_SUCCEEDED event', count(`SELECT COUNT(*) FROM order_refund r WHERE r.state = 'Succeeded' AND (SELECT COUNT(*) FROM notification_event e WHERE e.resource_id = r.id AND e.type = 'REFUND_SUCCEEDED') <> 1`) === 0));
  results.push(check('event Sequence numbers run 1, 2, 3 … per resource without gaps or repeats', count(`SELECT COUNT(*) FROM (SELECT resource_type, resource_id FROM notification_event WHERE resource_type <> 'Test' GROUP BY resource_type, resource_id HAVING MIN(sequence) <> 1 OR MAX(sequence) <> COUNT(*) OR COUNT(DISTINCT sequence) <> COUNT(*)) d`) === 0));
  results.push(check('no client gave up', counts.gaveUp === 0, `${counts.gaveUp} operations`));
  return results.every(Boolean);
}

// ---------------------------------------------------------------------------------------------------------

async function main() {
  if (!mariadbUp()) throw new Error('MariaDB is not running on 127.0.0.1:3306');
  log('building (nest build)');
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', '@nestjs', 'cli', 'bin', 'nest.js'), 'build'], { cwd: ROOT, stdio: 'ignore' });
  sql(`DROP DATABASE IF EXISTS ${DATABASE}; CREATE DATABASE ${DATABASE} CHARACTER SET utf8mb4`);
  const [portA, portB] = [await freePort(), await freePort()];
  const a = await startInstance('A', portA);
  await startInstance('B', portB);
  const merchant = cli('merchant', 'create', '--name', 'Drill Shop');
  const credentials = { username: `drill-${Date.now()}`, password: crypto.randomBytes(12).toString('base64url') };
  cli('user', 'create', '--username', credentials.username, `--password=${credentials.password}`, '--merchant', merchant.MerchantId);
  log(`two instances on ${DATABASE}: A :${portA}, B :${portB}; ${WORKERS} workers for ${SECONDS} s`);

  const stopAt = Date.now() + SECONDS * 1000;
  const load = Promise.all(Array.from({ length: WORKERS }, (_, i) => worker(i, credentials, merchant, stopAt)));

  await sleep(SECONDS * 250);
  log(`kill -9 instance A (pid ${a.child.pid})`);
  kill(a, 'SIGKILL');
  await sleep(SECONDS * 150);
  if (!options['no-db-restart']) await restartMariadb();
  await sleep(SECONDS * 100);
  log('starting instance A again');
  instances.splice(instances.indexOf(a), 1);
  await startInstance('A2', portA);
  await load;
  log(`load done: ${counts.sent} requests sent, ${counts.acknowledged} acknowledged, ${counts.retried} retries, ${counts.gaveUp} given up`);
  log(`acknowledged: ${acknowledged.sessions.size} sessions, ${acknowledged.orders.size} orders, ${acknowledged.refunds.size} refunds`);
  // Work a dead instance left half done is finished by the recovery jobs (a minute later, on any instance).
  for (let waited = 0; waited < 180; waited += 5) {
    const left = Number(sql(`USE ${DATABASE}; SELECT (SELECT COUNT(*) FROM payment_order WHERE state = 'Processing') + (SELECT COUNT(*) FROM order_refund WHERE state = 'InProgress')`));
    if (left === 0) break;
    if (waited === 0) log(`${left} orders or refunds left half done by the killed instance: waiting for the recovery jobs`);
    await sleep(5000);
  }
  const ok = checks();
  for (const instance of instances) kill(instance, 'SIGTERM');
  await sleep(500);
  sql(`DROP DATABASE IF EXISTS ${DATABASE}`);
  log(ok ? 'drill passed: nothing acknowledged was lost, nothing was done twice' : 'drill FAILED');
  process.exitCode = ok ? 0 : 1;
}

main().catch((error) => {
  log(`drill aborted: ${error.message}`);
  for (const instance of instances) kill(instance, 'SIGKILL');
  process.exitCode = 2;
});
