import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Clock } from '../src/common/clock/clock';
import { IdempotencyRecord } from '../src/common/idempotency/idempotency-record.entity';
import { JobLease } from '../src/common/scheduler/job-lease.entity';
import { JobOutcome, ScheduledJob, Scheduler } from '../src/common/scheduler/scheduler.service';
import { PaymentSession } from '../src/session/session.entity';
import { SessionState } from '../src/session/session-state';
import { sessionBody } from './setup/factories';
import { startTestApp, TestApp } from './setup/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MINUTE = 60_000;

describe('Scheduled jobs: one run per period across instances (database lease)', () => {
  // Two instances on one database; their timers are off so that each test drives the ticks itself.
  let a: TestApp;
  let b: TestApp;
  const instances = () => [a, b];

  beforeAll(async () => {
    a = await startTestApp({ SCHEDULER_ENABLED: 'false' });
    b = await startTestApp({ SCHEDULER_ENABLED: 'false' }, { shareDatabaseWith: a });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const scheduler = (t: TestApp) => t.app.get(Scheduler);
  /** Both instances' clocks, as real time would move for every server. */
  const travel = (ms: number) => instances().forEach((t) => t.app.get(Clock).travel(ms));
  const now = () => a.app.get(Clock).now();
  const lease = (name: string) => a.dataSource.getRepository(JobLease).findOneByOrFail({ name });
  /** Every instance registers the same job at start, as the owning module's service does. */
  const registerEverywhere = async (job: ScheduledJob) => {
    for (const t of instances()) await scheduler(t).register(job);
  };
  /** Many ticks on both instances at once; the names of the jobs that ran. */
  const stampede = async (ticks = 20): Promise<JobOutcome[]> => {
    const outcomes = await Promise.all(Array.from({ length: ticks }, (_, i) => scheduler(instances()[i % 2]).runDue()));
    return outcomes.flat();
  };

  it('concurrent ticks on two instances run the job exactly once per period', async () => {
    let runs = 0;
    await registerEverywhere({
      name: 'test-count',
      intervalSeconds: 60,
      run: async () => {
        runs++;
        await sleep(20); // long enough for the other ticks to find it running
      },
    });
    const holders = new Set<string>();
    for (let period = 1; period <= 3; period++) {
      const ran = (await stampede()).filter((outcome) => outcome.name === 'test-count');
      expect(ran).toHaveLength(1);
      expect(runs).toBe(period);
      // Later in the same period: still nothing.
      travel(30_000);
      expect((await stampede()).filter((outcome) => outcome.name === 'test-count')).toEqual([]);
      holders.add((await lease('test-count')).holder!);
      travel(31_000);
    }
    expect(runs).toBe(3);
    const row = await lease('test-count');
    expect(row.leaseUntil).toBeNull();
    expect(row.lastError).toBeNull();
    expect([scheduler(a).holder, scheduler(b).holder]).toEqual(expect.arrayContaining([...holders]));
  });

  it('a lease left by an instance that died is taken over once it expires', async () => {
    let runs = 0;
    await registerEverywhere({ name: 'test-takeover', intervalSeconds: 60, leaseSeconds: 120, run: async () => void runs++ });
    // The dead instance claimed the job, its period is over, but its lease still runs for 30 s.
    await a.dataSource.getRepository(JobLease).update(
      { name: 'test-takeover' },
      { holder: 'dead-instance', leaseUntil: new Date(now().getTime() + 30_000), nextRunAt: new Date(now().getTime() - 1000) },
    );
    await stampede();
    expect(runs).toBe(0);
    expect((await lease('test-takeover')).holder).toBe('dead-instance');

    travel(31_000);
    await stampede();
    expect(runs).toBe(1);
    const row = await lease('test-takeover');
    expect([scheduler(a).holder, scheduler(b).holder]).toContain(row.holder);
    expect(row.leaseUntil).toBeNull();
    expect(row.nextRunAt.getTime()).toBeGreaterThan(now().getTime());
  });

  it('a failing run records last_error, releases the lease and runs again next period', async () => {
    let attempts = 0;
    await registerEverywhere({
      name: 'test-failing',
      intervalSeconds: 60,
      run: async () => {
        if (++attempts === 1) throw new Error('upstream unavailable');
      },
    });
    const first = (await stampede()).filter((outcome) => outcome.name === 'test-failing');
    expect(first).toEqual([{ name: 'test-failing', error: 'upstream unavailable' }]);
    let row = await lease('test-failing');
    expect(row.lastError).toBe('upstream unavailable');
    expect(row.leaseUntil).toBeNull();

    // Not again in the same period...
    await stampede();
    expect(attempts).toBe(1);
    // ...but in the next one, which succeeds and clears the error.
    travel(61_000);
    await stampede();
    expect(attempts).toBe(2);
    row = await lease('test-failing');
    expect(row.lastError).toBeNull();
    expect(row.lastRunAt).not.toBeNull();
  });

  it('session-expiry turns CREATED sessions past their expiry into EXPIRED and leaves the others', async () => {
    const m = await a.merchantUser();
    const create = async () => (await a.http().post('/v2.22/session').auth(m.username, m.password).send(sessionBody())).body;
    const read = (id: string) => b.http().get(`/v2.22/session/${id}`).auth(m.username, m.password);
    const older = await create();
    await sleep(400);
    const newer = await create();
    const cancelled = await create();
    expect((await a.http().delete(`/v2.22/session/${cancelled.SessionId}`).auth(m.username, m.password)).status).toBe(204);

    // The clock moves to between the two expiries (about a day ahead, TTL default 24 h).
    const between = (Date.parse(older.ExpiresAt) + Date.parse(newer.ExpiresAt)) / 2;
    travel(between - now().getTime());
    const ran = (await stampede()).filter((outcome) => outcome.name === 'session-expiry');
    expect(ran).toEqual([{ name: 'session-expiry', processed: 1 }]);

    const state = async (id: string) => (await a.dataSource.getRepository(PaymentSession).findOneByOrFail({ id })).state;
    expect(await state(older.SessionId)).toBe(SessionState.Expired);
    expect(await state(newer.SessionId)).toBe(SessionState.Created);
    expect(await state(cancelled.SessionId)).toBe(SessionState.Cancelled);
    // The stored state, not the lazy check on read (which uses real time), is what the interface shows.
    expect((await read(older.SessionId)).body.State).toBe('EXPIRED');
    expect((await read(newer.SessionId)).body.State).toBe('CREATED');
  });

  it('idempotency-purge deletes records older than the TTL and keeps newer ones', async () => {
    const m = await a.merchantUser();
    const sent = await a.http().post('/v2.22/session').auth(m.username, m.password).set('Idempotency-Key', 'purge-me').send(sessionBody());
    expect(sent.status).toBe(201);
    travel(24 * 3600_000 + 11 * MINUTE);
    const records = a.dataSource.getRepository(IdempotencyRecord);
    await records.insert({ merchantId: m.merchantId!, key: 'keep-me', requestHash: 'x'.repeat(64), responseStatus: 201, responseBody: '{}', createdAt: now() });

    const ran = (await stampede()).filter((outcome) => outcome.name === 'idempotency-purge');
    expect(ran).toHaveLength(1);
    expect((await records.findBy({ merchantId: m.merchantId! })).map((record) => record.key)).toEqual(['keep-me']);
  });

  it('shutdown waits for a run in progress, which still releases its lease', async () => {
    const c = await startTestApp({ SCHEDULER_ENABLED: 'false' }, { shareDatabaseWith: a });
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    let started = false;
    let finished = false;
    await scheduler(c).register({
      name: 'test-slow',
      intervalSeconds: 60,
      run: async () => {
        started = true;
        await gate;
        finished = true;
      },
    });
    const tick = scheduler(c).runDue();
    while (!started) await sleep(10);

    let closed = false;
    const closing = c.close().then(() => (closed = true));
    await sleep(300);
    expect(closed).toBe(false);
    finish();
    await closing;
    expect(finished).toBe(true);
    expect((await tick).map((outcome) => outcome.name)).toContain('test-slow');
    const row = await lease('test-slow');
    expect(row.leaseUntil).toBeNull();
    expect(row.lastRunAt).not.toBeNull();
    // A stopped scheduler claims nothing more.
    travel(61_000);
    expect(await scheduler(c).runDue()).toEqual([]);
  });
});

describe('Scheduled jobs: the timer (enabled by default)', () => {
  it('ticks by itself, and close() stops it', async () => {
    const t = await startTestApp({ SCHEDULER_TICK_MS: '50' });
    try {
      const ran = async () => (await t.dataSource.getRepository(JobLease).findOneBy({ name: 'session-expiry' }))?.lastRunAt;
      for (let i = 0; i < 100 && !(await ran()); i++) await sleep(50);
      expect(await ran()).toBeInstanceOf(Date);
    } finally {
      await t.close();
    }
  });
});

describe('Scheduled jobs: cli jobs run', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ SCHEDULER_ENABLED: 'false' });
  });
  afterAll(() => t.close());

  const cli = async (...args: string[]) => {
    const root = join(__dirname, '..');
    const { stdout } = await promisify(execFile)('node', [join(root, 'scripts/cli.js'), ...args], {
      cwd: root,
      env: { ...process.env, ...t.env, LOG_LEVEL: 'silent' },
    });
    return JSON.parse(stdout);
  };

  it('runs the due jobs once, as one more instance, and prints what ran', async () => {
    const m = await t.merchantUser();
    const created = await t.http().post('/v2.22/session').auth(m.username, m.password).send(sessionBody());
    const id = created.body.SessionId as string;
    await t.dataSource.getRepository(PaymentSession).update({ id }, { expiresAt: new Date(Date.now() - 1000) });

    const first = await cli('jobs', 'run');
    expect(first.Ran).toEqual(
      expect.arrayContaining([
        { Job: 'session-expiry', Processed: 1 },
        { Job: 'idempotency-purge', Processed: 0 },
      ]),
    );
    expect((await t.dataSource.getRepository(PaymentSession).findOneByOrFail({ id })).state).toBe(SessionState.Expired);
    // Same period: nothing is due any more.
    expect(await cli('jobs', 'run')).toEqual({ Ran: [] });
  }, 60_000);
});
