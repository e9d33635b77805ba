import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FindOptionsWhere } from 'typeorm';
import { MerchantService } from '../src/auth/merchant.service';
import { SigningSecretService } from '../src/auth/signing-secret.service';
import { CheckoutClient } from '../src/checkout/client/checkout-client';
import { Clock } from '../src/common/clock/clock';
import { TransactionRunner } from '../src/common/database/transaction-runner';
import { Scheduler } from '../src/common/scheduler/scheduler.service';
import { NotificationDetailView } from '../src/notifications/dto/notification-views.dto';
import { NotificationDeliveryService } from '../src/notifications/notification-delivery.service';
import { NotificationEvent } from '../src/notifications/notification-event.entity';
import { Order } from '../src/orders/order.entity';
import { OrderService } from '../src/orders/order.service';
import { card, CARDS, checkoutParams, CheckoutTestApp, startCheckoutApp } from './setup/checkout';
import { freePort } from './setup/browser';
import { sessionBody } from './setup/factories';
import { serviceNodeArgs } from './setup/service-command';
import { Credentials, startTestApp, TestApp } from './setup/test-app';

/** Short retry schedule: 50, 100, 200, 200 … ms, given up after ~1.3 s (9 attempts). Jobs are driven by hand. */
const ENV = {
  SCHEDULER_ENABLED: 'false',
  NOTIFY_RETRY_FIRST_DELAY_MS: '50',
  NOTIFY_RETRY_MAX_DELAY_MS: '200',
  NOTIFY_RETRY_FOR_SECONDS: '1',
};
const ATTEMPTS_ALLOWED = 9;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The README's verification snippet, evaluated as a merchant would paste it (so the README cannot rot). */
const README = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
const snippet = /<!-- verify-notification -->\s*```js\n([\s\S]*?)```/.exec(README)?.[1];
const verifyNotification = new Function('require', `${snippet}\nreturn verifyNotification;`)(require) as (header: string, rawBody: Buffer | string, secret: string) => boolean;

interface Delivery {
  route: string;
  raw: Buffer;
  body: { EventId: string; EventType: string; CreatedAt: string; Sequence: number; [resource: string]: unknown };
  signature: string;
  status: number | 'hang';
}

type Behaviour = (delivery: Delivery, nth: number) => number | 'hang' | Promise<number>;

/** A merchant's webhook endpoint on 127.0.0.1: routes by path, records every request and overlapping deliveries of one event. */
class Receiver {
  private server!: Server;
  private origin = '';
  private readonly routes = new Map<string, Behaviour>();
  readonly log: Delivery[] = [];
  private readonly inFlight = new Map<string, number>();
  private readonly seen = new Map<string, number>();
  private readonly hanging: ServerResponse[] = [];
  overlaps = 0;

  async start(): Promise<void> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const response of this.hanging) response.socket?.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** A new endpoint; by default it answers 204. */
  url(route: string, behaviour: Behaviour = () => 204): string {
    this.routes.set(route, behaviour);
    return `${this.origin}/hooks/${route}`;
  }

  /** Successful deliveries to a route, in arrival order. */
  delivered(route: string): Delivery[] {
    return this.log.filter((delivery) => delivery.route === route && typeof delivery.status === 'number' && delivery.status < 300);
  }

  requests(route: string): Delivery[] {
    return this.log.filter((delivery) => delivery.route === route);
  }

  /** Ends the hanging requests of a route from the receiver's side (the connection drops). */
  dropHanging(): void {
    for (const response of this.hanging.splice(0)) response.socket?.destroy();
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const route = request.url!.replace('/hooks/', '');
    const delivery: Delivery = { route, raw, body: JSON.parse(raw.toString('utf8')), signature: String(request.headers.signature ?? ''), status: 0 };
    const id = delivery.body.EventId;
    const nth = (this.seen.get(id) ?? 0) + 1;
    this.seen.set(id, nth);
    this.inFlight.set(id, (this.inFlight.get(id) ?? 0) + 1);
    if (this.inFlight.get(id)! > 1) this.overlaps++;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      this.inFlight.set(id, this.inFlight.get(id)! - 1);
    };
    response.on('close', finish);
    this.log.push(delivery);
    const outcome = await (this.routes.get(route) ?? (() => 404))(delivery, nth);
    delivery.status = outcome;
    if (outcome === 'hang') {
      this.hanging.push(response);
      return;
    }
    response.writeHead(outcome).end();
    finish();
  }
}

describe('Notifications (webhooks)', () => {
  let c: CheckoutTestApp;
  let receiver: Receiver;
  let delivery: NotificationDeliveryService;

  beforeAll(async () => {
    receiver = new Receiver();
    await receiver.start();
    c = await startCheckoutApp(ENV);
    delivery = c.t.app.get(NotificationDeliveryService);
  }, 60_000);
  afterAll(async () => {
    await c?.t.close();
    await receiver?.stop();
  });

  /** Runs deliveries (as the scheduled job would) until `done`, or fails after `timeoutMs`. */
  const deliverUntil = async (done: () => boolean | Promise<boolean>, instances: NotificationDeliveryService[] = [delivery], timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await Promise.all(instances.map((instance) => instance.deliverDue()));
      if (await done()) return;
      if (Date.now() > deadline) throw new Error('notifications were not delivered in time');
      await sleep(20);
    }
  };
  const events = (where: FindOptionsWhere<NotificationEvent>) => c.t.dataSource.getRepository(NotificationEvent).find({ where, order: { createdAt: 'ASC', sequence: 'ASC' } });
  const pending = () => c.t.dataSource.getRepository(NotificationEvent).countBy({ state: 'Pending' as never });

  let shops = 0;
  /** A merchant of its own (with a notify URL on its own route unless null), its checkout client and a Basic-auth user. */
  const shop = async (behaviour?: Behaviour | null) => {
    const route = `shop-${++shops}`;
    const notifyUrl = behaviour === null ? undefined : receiver.url(route, behaviour);
    const { merchant, signingSecret } = await c.t.app.get(MerchantService).create({ name: `Notified Shop ${shops}`, notifyUrl });
    const user = await c.t.user(merchant.id, 'merchant');
    return {
      route,
      merchantId: merchant.id,
      secret: signingSecret,
      user,
      client: new CheckoutClient({ baseUrl: c.base, merchantId: merchant.id, signingSecret }),
    };
  };
  const api = (user: Credentials) => ({
    get: (path: string) => c.t.http().get(`/v2.22/notifications${path}`).auth(user.username, user.password),
    post: (path: string, body?: object) => {
      const call = c.t.http().post(`/v2.22/notifications${path}`).auth(user.username, user.password);
      return body === undefined ? call : call.send(body);
    },
  });
  const typesAndSequences = (deliveries: Delivery[]) => deliveries.map((d) => [d.body.EventType, d.body.Sequence]);
  /** GET /notifications/{id} over HTTP with Basic auth; each app checks credentials against its own database. */
  const detail = async (user: Credentials, id: string): Promise<NotificationDetailView> => {
    const res = await api(user).get(`/${id}`);
    expect(res.status).toBe(200);
    return res.body;
  };

  describe('events', () => {
    it('reports a checkout with Capture=true as ORDER_AUTHORIZED then ORDER_PROCESSED, signed as the README shows', async () => {
      const s = await shop();
      const answer = await s.client.checkout(checkoutParams(), card());
      await deliverUntil(() => receiver.delivered(s.route).length === 2);

      const got = receiver.delivered(s.route);
      expect(typesAndSequences(got)).toEqual([['ORDER_AUTHORIZED', 1], ['ORDER_PROCESSED', 2]]);
      expect(got[1].body).toEqual({
        EventId: expect.any(String),
        EventType: 'ORDER_PROCESSED',
        CreatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        Sequence: 2,
        Order: expect.objectContaining({ OrderId: answer.OrderId, OrderState: 'Processed', ConsumerTotal: '24.50', Captured: true, Card: { Brand: 'VISA', Last4: '1111' } }),
      });
      for (const d of got) {
        expect(d.signature).toMatch(/^t=\d+,v1=[A-Za-z0-9+/]+=*$/);
        expect(verifyNotification(d.signature, d.raw, s.secret)).toBe(true);
        expect(verifyNotification(d.signature, Buffer.concat([d.raw, Buffer.from(' ')]), s.secret)).toBe(false);
        expect(verifyNotification(d.signature, d.raw, 'another-secret')).toBe(false);
      }
      const stored = await events({ resourceId: answer.OrderId });
      expect(stored.map((e) => [e.state, e.attempts])).toEqual([['Delivered', 1], ['Delivered', 1]]);
    });

    it('sends an order with its own Notify there, refunds included, with Sequence 1, 2, 3 … without gaps', async () => {
      const s = await shop();
      const own = receiver.url(`${s.route}-own`);
      const answer = await s.client.checkout(checkoutParams({ Capture: false, Notify: own }), card());
      await s.client.capture(answer.OrderId);
      await s.client.refund({ OrderId: answer.OrderId, ReferenceId: 'r-1', Amount: '4.50' });
      await s.client.refund({ OrderId: answer.OrderId, ReferenceId: 'r-2', Amount: '10.13' }); // the sandbox fails this one
      await deliverUntil(() => receiver.delivered(`${s.route}-own`).length === 4);

      const got = receiver.delivered(`${s.route}-own`);
      expect(receiver.requests(s.route)).toEqual([]);
      const orderEvents = got.filter((d) => d.body.Order);
      // The order's version went 1 → 4 (Processing, PaymentAuthorized, Processing, Processed); its notifications count 1, 2.
      expect(typesAndSequences(orderEvents)).toEqual([['ORDER_AUTHORIZED', 1], ['ORDER_PROCESSED', 2]]);
      expect(orderEvents[0].body.Order).toMatchObject({ OrderState: 'PaymentAuthorized', Expiry: expect.any(String) });
      const refunds = got.filter((d) => d.body.Refund).sort((x, y) => (x.body.EventType < y.body.EventType ? 1 : -1));
      expect(typesAndSequences(refunds)).toEqual([['REFUND_SUCCEEDED', 1], ['REFUND_FAILED', 1]]);
      expect(refunds[0].body.Refund).toMatchObject({ OrderId: answer.OrderId, ReferenceId: 'r-1', Amount: '4.50', State: 'Succeeded' });
      expect(refunds[1].body.Refund).toMatchObject({ ReferenceId: 'r-2', Amount: '10.13', State: 'Failed' });
      for (const d of got) expect(verifyNotification(d.signature, d.raw, s.secret)).toBe(true);
    });

    it('reports a session paid on the payment page as SESSION_COMPLETED, and one declined three times as SESSION_FAILED', async () => {
      const s = await shop();
      const create = async () => {
        const res = await c.t.http().post('/v2.22/session').auth(s.user.username, s.user.password).send(sessionBody());
        expect(res.status).toBe(201);
        return res.body.SessionId as string;
      };
      const pay = (id: string, number: string) =>
        c.t.http().post(`/pay/${id}`).send({ PaymentMethod: 'CARD', Card: { Name: 'Jo Doe', Number: number, VerificationCode: '123', Expiry: { Month: 12, Year: 2040 } } });
      const paid = await create();
      expect((await pay(paid, CARDS.visa)).body.Outcome).toBe('COMPLETED');
      const failed = await create();
      for (let i = 0; i < 3; i++) await pay(failed, CARDS.declined);
      await deliverUntil(() => receiver.delivered(s.route).filter((d) => d.body.Session).length === 2);

      const sessions = receiver.delivered(s.route).filter((d) => d.body.Session);
      expect(sessions.map((d) => [d.body.EventType, d.body.Sequence, (d.body.Session as { SessionId: string }).SessionId])).toEqual(
        expect.arrayContaining([['SESSION_COMPLETED', 1, paid], ['SESSION_FAILED', 1, failed]]),
      );
      const completed = sessions.find((d) => d.body.EventType === 'SESSION_COMPLETED')!.body.Session;
      expect(completed).toMatchObject({ SessionId: paid, State: 'COMPLETED', PaymentMethod: 'VISA', Order: { State: 'PROCESSED', SessionId: paid } });
      // The failed session's order failed three times: three events, Sequence 1, 2, 3.
      await deliverUntil(() => receiver.delivered(s.route).filter((d) => d.body.EventType === 'ORDER_PROCESSING_FAILED').length === 3);
      const failures = receiver.delivered(s.route).filter((d) => d.body.EventType === 'ORDER_PROCESSING_FAILED');
      expect(failures.map((d) => d.body.Sequence)).toEqual([1, 2, 3]);
    });

    it('reminds once per authorization that its capture deadline is near, from the scheduled job', async () => {
      const s = await shop();
      const held = await s.client.checkout(checkoutParams({ Capture: false }), card());
      const later = await s.client.checkout(checkoutParams({ Capture: false }), card());
      // One deadline within the reminder window (24 h by default), the other still 7 days away.
      const soon = new Date(c.t.app.get(Clock).now().getTime() + 3600_000);
      await c.t.app.get(TransactionRunner).run((manager) => manager.getRepository(Order).update({ id: held.OrderId }, { expiresAt: soon }));

      const outcomes = await c.t.app.get(Scheduler).runDue();
      expect(outcomes).toEqual(expect.arrayContaining([{ name: 'capture-deadline-reminder', processed: 1 }]));
      expect(await c.t.app.get(OrderService).remindCaptureDeadlines(24 * 3600_000)).toBe(0);
      await deliverUntil(() => receiver.delivered(s.route).length === 3);

      const reminders = receiver.delivered(s.route).filter((d) => d.body.EventType === 'ORDER_CAPTURE_DEADLINE_APPROACHING');
      expect(reminders).toHaveLength(1);
      expect(reminders[0].body).toMatchObject({ Sequence: 2, Order: { OrderId: held.OrderId, OrderState: 'PaymentAuthorized', Expiry: soon.toISOString() } });
      expect((await events({ resourceId: later.OrderId })).map((e) => e.type)).toEqual(['ORDER_AUTHORIZED']);
    });

    it('signs with the old secret too while a rotation overlaps: two v1 values', async () => {
      const s = await shop();
      const { secret: newSecret } = await c.t.app.get(SigningSecretService).rotate(s.merchantId);
      const client = new CheckoutClient({ baseUrl: c.base, merchantId: s.merchantId, signingSecret: newSecret });
      await client.checkout(checkoutParams({ Capture: false }), card());
      await deliverUntil(() => receiver.delivered(s.route).length === 1);

      const [d] = receiver.delivered(s.route);
      const [t, first, second, ...rest] = d.signature.split(',');
      expect([t, rest]).toEqual([expect.stringMatching(/^t=\d+$/), []]);
      expect(verifyNotification(`${t},${first}`, d.raw, newSecret)).toBe(true);
      expect(verifyNotification(`${t},${second}`, d.raw, s.secret)).toBe(true);
      expect(verifyNotification(`${t},${first}`, d.raw, s.secret)).toBe(false);
    });
  });

  describe('retries and redelivery', () => {
    it('retries a receiver that fails, then recovers: every event arrives, in Sequence order, every attempt recorded', async () => {
      const s = await shop((_, nth) => (nth <= 3 ? 500 : 200));
      const answer = await s.client.checkout(checkoutParams(), card());
      await deliverUntil(() => receiver.delivered(s.route).length === 2);

      const requests = receiver.requests(s.route);
      expect(requests.map((d) => [d.body.EventType, d.status])).toEqual([
        ['ORDER_AUTHORIZED', 500], ['ORDER_AUTHORIZED', 500], ['ORDER_AUTHORIZED', 500], ['ORDER_AUTHORIZED', 200],
        ['ORDER_PROCESSED', 500], ['ORDER_PROCESSED', 500], ['ORDER_PROCESSED', 500], ['ORDER_PROCESSED', 200],
      ]);
      const [authorized] = await events({ resourceId: answer.OrderId, sequence: 1 });
      const res = await api(s.user).get(`/${authorized.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ EventId: authorized.id, EventType: 'ORDER_AUTHORIZED', State: 'Delivered', Attempts: 4, LastStatus: 200, Sequence: 1, ResourceType: 'Order', ResourceId: answer.OrderId });
      expect(res.body.AttemptLog.map((a: { Attempt: number; StatusCode: number }) => [a.Attempt, a.StatusCode])).toEqual([[1, 500], [2, 500], [3, 500], [4, 200]]);
      expect(res.body.Payload).toEqual(JSON.parse(requests[0].raw.toString()));
      // The waits grew: 50, 100, 200 ms nominal (±20 %).
      const started = res.body.AttemptLog.map((a: { StartedAt: string }) => Date.parse(a.StartedAt));
      expect(started[2] - started[1]).toBeGreaterThan(started[1] - started[0]);
    });

    it('gives up after the schedule, then sends again on request (one event, or every event in a time range)', async () => {
      let up = false;
      const s = await shop(() => (up ? 200 : 503));
      const from = c.t.app.get(Clock).now();
      const answer = await s.client.checkout(checkoutParams({ Capture: false }), card());
      const [event] = await events({ resourceId: answer.OrderId });
      await deliverUntil(async () => (await events({ id: event.id }))[0].state === 'Failed');
      const failed = (await api(s.user).get(`/${event.id}`)).body;
      expect(failed).toMatchObject({ State: 'Failed', Attempts: ATTEMPTS_ALLOWED, LastStatus: 503 });
      expect(failed.AttemptLog).toHaveLength(ATTEMPTS_ALLOWED);
      expect((await api(s.user).get('?state=Failed')).body.Notifications.map((n: { EventId: string }) => n.EventId)).toEqual([event.id]);

      up = true;
      const redelivered = await api(s.user).post(`/${event.id}/redeliver`);
      expect(redelivered.status).toBe(202);
      expect(redelivered.body).toMatchObject({ EventId: event.id, State: 'Pending' });
      await deliverUntil(() => receiver.delivered(s.route).length === 1);
      expect((await api(s.user).get(`/${event.id}`)).body).toMatchObject({ State: 'Delivered', Attempts: ATTEMPTS_ALLOWED + 1, LastStatus: 200 });

      // The whole range again (the capture adds ORDER_PROCESSED): both are sent again, in Sequence order.
      await s.client.capture(answer.OrderId);
      await deliverUntil(() => receiver.delivered(s.route).length === 2);
      const range = await api(s.user).post('/redeliver', { From: from.toISOString(), To: new Date(c.t.app.get(Clock).now().getTime() + 1000).toISOString() });
      expect(range.status).toBe(202);
      expect(range.body).toEqual({ Redelivered: 2 });
      await deliverUntil(() => receiver.delivered(s.route).length === 4);
      expect(typesAndSequences(receiver.delivered(s.route))).toEqual([['ORDER_AUTHORIZED', 1], ['ORDER_PROCESSED', 2], ['ORDER_AUTHORIZED', 1], ['ORDER_PROCESSED', 2]]);
      expect(receiver.delivered(s.route)[2].body.EventId).toBe(event.id);
    });

    it('keeps an event for a merchant without a URL as NoTarget, and sends it once `cli merchant update` sets one', async () => {
      const s = await shop(null);
      const answer = await s.client.checkout(checkoutParams({ Capture: false }), card());
      const metrics = (await c.t.http().get('/metrics')).text;
      expect(Number(/^notification_backlog (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(1);
      await deliverUntil(async () => (await events({ resourceId: answer.OrderId }))[0].state === 'NoTarget');
      const [event] = await events({ resourceId: answer.OrderId });
      expect(event).toMatchObject({ attempts: 0, lastError: 'no notify URL' });
      expect((await api(s.user).post('/test')).body).toMatchObject({ Code: 'NOTIFY_URL_MISSING' });

      const url = receiver.url(s.route);
      const { stdout } = await promisify(execFile)('node', [join(__dirname, '..', 'scripts/cli.js'), 'merchant', 'update', '--id', s.merchantId, '--notify-url', url], {
        env: { ...process.env, ...c.t.env, LOG_LEVEL: 'silent' },
      });
      expect(JSON.parse(stdout)).toEqual({ MerchantId: s.merchantId, NotifyUrl: url });
      expect((await api(s.user).post(`/${event.id}/redeliver`)).status).toBe(202);
      await deliverUntil(() => receiver.delivered(s.route).length === 1);
      expect(receiver.delivered(s.route)[0].body.EventId).toBe(event.id);
    }, 60_000);

    it('sends a TEST event on request', async () => {
      const s = await shop();
      const res = await api(s.user).post('/test');
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ EventType: 'TEST', State: 'Pending', Sequence: 1, ResourceType: 'Test', Payload: { EventType: 'TEST', Sequence: 1 } });
      await deliverUntil(() => receiver.delivered(s.route).length === 1);
      expect(receiver.delivered(s.route)[0].body).toEqual({ EventId: res.body.EventId, EventType: 'TEST', CreatedAt: expect.any(String), Sequence: 1 });
      expect((await api(s.user).get(`/${res.body.EventId}`)).body).toMatchObject({ State: 'Delivered', Attempts: 1 });
    });
  });

  describe('the merchant API', () => {
    let s: Awaited<ReturnType<typeof shop>>;
    let ids: string[];

    beforeAll(async () => {
      s = await shop();
      await s.client.checkout(checkoutParams(), card());
      await s.client.checkout(checkoutParams({ Capture: false }), card());
      await deliverUntil(() => receiver.delivered(s.route).length === 3);
      ids = receiver.delivered(s.route).map((d) => d.body.EventId);
    });

    it('lists newest first, a page at a time, with filters', async () => {
      const first = await api(s.user).get('?limit=2');
      expect(first.status).toBe(200);
      expect(first.body.Notifications).toHaveLength(2);
      expect(first.body.Notifications[0]).toMatchObject({ MerchantId: s.merchantId, State: 'Delivered', Attempts: 1, LastStatus: 204 });
      const second = await api(s.user).get(`?limit=2&after=${first.body.Next}`);
      expect(second.body.Next).toBeUndefined();
      const listed = [...first.body.Notifications, ...second.body.Notifications].map((n: { EventId: string }) => n.EventId);
      expect([...listed].sort()).toEqual([...ids].sort());
      const created = [...first.body.Notifications, ...second.body.Notifications].map((n: { CreatedAt: string }) => n.CreatedAt);
      expect([...created].sort().reverse()).toEqual(created);
      expect((await api(s.user).get('?type=ORDER_PROCESSED')).body.Notifications).toHaveLength(1);
      expect((await api(s.user).get('?state=Pending')).body.Notifications).toHaveLength(0);
      expect((await api(s.user).get('?to=2000-01-01T00:00:00Z')).body.Notifications).toHaveLength(0);
      expect((await api(s.user).get(`?from=${encodeURIComponent(new Date(Date.now() - 600_000).toISOString())}`)).body.Notifications).toHaveLength(3);
    });

    it('keeps each merchant to its own events (another merchant\'s is 404) and lets readonly users read only', async () => {
      const other = await shop();
      expect((await api(other.user).get(`/${ids[0]}`)).status).toBe(404);
      expect((await api(other.user).get(`/${ids[0]}`)).body).toMatchObject({ Code: 'NOTIFICATION_NOT_FOUND', Message: expect.any(String) });
      expect((await api(other.user).post(`/${ids[0]}/redeliver`)).status).toBe(404);
      expect((await api(other.user).get('')).body.Notifications).toEqual([]);

      const readonly = await c.t.user(s.merchantId, 'readonly');
      expect((await api(readonly).get(`/${ids[0]}`)).status).toBe(200);
      expect((await api(readonly).get('')).body.Notifications).toHaveLength(3);
      for (const call of [api(readonly).post(`/${ids[0]}/redeliver`), api(readonly).post('/test'), api(readonly).post('/redeliver', { From: '2025-01-01T00:00:00Z', To: '2025-01-02T00:00:00Z' })]) {
        expect((await call).body).toMatchObject({ Code: 'NOT_AUTHORIZED' });
      }
      const admin = await c.t.user(null, 'admin');
      expect((await api(admin).get(`/${ids[0]}`)).status).toBe(200);
      expect((await api(admin).post(`/${ids[0]}/redeliver`)).status).toBe(403);
      expect((await c.t.http().get('/v2.22/notifications')).status).toBe(401);
    });

    it.each([
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=abc', 'limit'],
      ['?state=Lost', 'state'],
      ['?type=ORDER_LOST', 'type'],
      ['?from=yesterday', 'from'],
      ['?to=2025-02-30T00:00:00Z', 'to'],
      ['?from=2025-01-01T00:00:00', 'from'],
      ['?after=not-a-uuid', 'after'],
      ['?colour=red', 'colour'],
      ['?state=Failed&state=Pending', 'state'],
    ])('answers GET %s with 400 INVALID_REQUEST naming %s', async (query, field) => {
      const res = await api(s.user).get(query);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ Code: 'INVALID_REQUEST', FieldErrors: [expect.objectContaining({ Field: field })] });
    });

    it('refuses bad ids and bodies with 400/415 in the spec\'s format, never 500', async () => {
      expect((await api(s.user).get('/not-a-uuid')).body).toMatchObject({ Code: 'VALIDATION_ERROR' });
      expect((await api(s.user).get('/00000000-0000-4000-8000-000000000000')).status).toBe(404);
      expect((await api(s.user).get(`?after=00000000-0000-4000-8000-000000000000`)).body).toMatchObject({ Code: 'INVALID_REQUEST', FieldErrors: [expect.objectContaining({ Field: 'after' })] });
      const bodies: [unknown, string[]][] = [
        [{}, ['From', 'To']],
        [{ From: '2025-01-02T00:00:00Z', To: '2025-01-01T00:00:00Z' }, ['To']],
        [{ From: '2025-01-01', To: '2025-01-02T00:00:00Z' }, ['From']],
        [{ From: 20250101, To: '2025-01-02T00:00:00Z' }, ['From']],
        [{ From: '2025-01-01T00:00:00Z', To: '2025-01-02T00:00:00Z', Colour: 'red' }, ['Colour']],
        [[], ['$']],
      ];
      for (const [body, fields] of bodies) {
        const res = await api(s.user).post('/redeliver', body as object);
        expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
        expect(res.body.FieldErrors.map((f: { Field: string }) => f.Field)).toEqual(fields);
      }
      const text = await c.t.http().post('/v2.22/notifications/redeliver').auth(s.user.username, s.user.password).set('Content-Type', 'text/plain').send('From=x');
      expect([text.status, text.body.Code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
      const malformed = await c.t.http().post('/v2.22/notifications/redeliver').auth(s.user.username, s.user.password).set('Content-Type', 'application/json').send('{"From":');
      expect(malformed.status).toBe(400);
    });

    it('is described in the OpenAPI document', async () => {
      const paths = (await c.t.http().get('/openapi.json')).body.paths;
      expect(Object.keys(paths)).toEqual(
        expect.arrayContaining(['/v2.22/notifications', '/v2.22/notifications/{EventId}', '/v2.22/notifications/{EventId}/redeliver', '/v2.22/notifications/redeliver', '/v2.22/notifications/test']),
      );
    });
  });

  describe('several instances', () => {
    const started: TestApp[] = [];
    const instance = async (env: Record<string, string> = {}) => {
      const t = await startTestApp({ ...ENV, ...env }, { shareDatabaseWith: c.t });
      started.push(t);
      return t;
    };
    const retire = async (t: TestApp) => {
      started.splice(started.indexOf(t), 1);
      await t.close();
    };
    afterAll(async () => {
      for (const t of started.reverse()) await t.close().catch(() => undefined);
    });

    /** While a dead holder's lease runs nobody else sends its event; once it has expired, this instance does, once. */
    const sentByAnotherInstanceAfterTheLease = async (route: string) => {
      await delivery.deliverDue();
      expect(receiver.requests(route)).toHaveLength(1);
      const clock = c.t.app.get(Clock);
      clock.travel(61_000);
      try {
        await deliverUntil(() => receiver.delivered(route).length === 1);
      } finally {
        clock.travel(-61_000);
      }
      expect(receiver.overlaps).toBe(0);
    };

    it('never sends one event twice at the same time when two instances deliver at once', async () => {
      const b = await instance();
      const s = await shop(() => sleep(100).then(() => 200));
      const orders = [];
      for (let i = 0; i < 5; i++) orders.push((await s.client.checkout(checkoutParams(), card())).OrderId);
      const both = [delivery, b.app.get(NotificationDeliveryService)];
      await deliverUntil(() => receiver.delivered(s.route).length === 10, [...both, ...both]);

      expect(receiver.overlaps).toBe(0);
      const got = receiver.delivered(s.route);
      expect(new Set(got.map((d) => d.body.EventId)).size).toBe(10);
      for (const orderId of orders) {
        expect(got.filter((d) => (d.body.Order as { OrderId: string }).OrderId === orderId).map((d) => d.body.Sequence)).toEqual([1, 2]);
      }
      expect((await events({ merchantId: s.merchantId })).map((e) => e.attempts)).toEqual(Array(10).fill(1));
    });

    it('delivers by itself on an instance with scheduled work on (the delivery loop)', async () => {
      const looping = await instance({ SCHEDULER_ENABLED: 'true', NOTIFY_DELIVERY_INTERVAL_MS: '50' });
      const s = await shop();
      await s.client.checkout(checkoutParams({ Capture: false }), card());
      await deliverUntil(() => receiver.delivered(s.route).length === 1, []);
      await retire(looping);
    });

    it('loses nothing when an instance dies mid-delivery: its lease expires and another instance sends the event', async () => {
      await deliverUntil(async () => (await pending()) === 0);
      const victim = await instance();
      const s = await shop((_, nth) => (nth === 1 ? 'hang' : 200));
      const answer = await s.client.checkout(checkoutParams({ Capture: false }), card());
      const [event] = await events({ resourceId: answer.OrderId });

      const dying = victim.app.get(NotificationDeliveryService).deliverDue();
      await deliverUntil(() => receiver.requests(s.route).length === 1, []);
      // The instance dies: its database connection is gone before the attempt ends, so nothing of it is recorded.
      await victim.dataSource.destroy();
      receiver.dropHanging();
      await dying;
      const [held] = await events({ id: event.id });
      expect(held).toMatchObject({ state: 'Pending', attempts: 1, lockedBy: victim.app.get(NotificationDeliveryService).holder });

      await sentByAnotherInstanceAfterTheLease(s.route);
      const shown = await detail(s.user, event.id);
      expect(shown).toMatchObject({ State: 'Delivered', Attempts: 2 });
      expect(shown.AttemptLog.map((a) => [a.Attempt, a.StatusCode])).toEqual([[2, 200]]);
    });

    it('loses nothing when a service process is killed (SIGKILL) mid-delivery: another instance sends the event after the lease', async () => {
      await deliverUntil(async () => (await pending()) === 0);
      const s = await shop((_, nth) => (nth === 1 ? 'hang' : 200));
      const answer = await s.client.checkout(checkoutParams({ Capture: false }), card());
      const [event] = await events({ resourceId: answer.OrderId });

      // A real service process on the same database, delivering on its own (its delivery loop).
      const env = { ...(process.env as Record<string, string>), ...c.t.env, PORT: String(await freePort()), HOST: '127.0.0.1', SCHEDULER_ENABLED: 'true', NOTIFY_DELIVERY_INTERVAL_MS: '50' };
      const child = spawn('node', serviceNodeArgs(), { cwd: join(__dirname, '..'), env, stdio: 'ignore' });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        await deliverUntil(() => receiver.requests(s.route).length === 1, [], 30_000);
      } finally {
        child.kill('SIGKILL');
        await exited;
      }
      receiver.dropHanging();
      const [held] = await events({ id: event.id });
      expect(held).toMatchObject({ state: 'Pending', attempts: 1 });
      expect(held.lockedBy).not.toBeNull();

      await sentByAnotherInstanceAfterTheLease(s.route);
      expect(await detail(s.user, event.id)).toMatchObject({ State: 'Delivered', Attempts: 2 });
    }, 60_000);

    it('an instance shutting down mid-delivery records the attempt as interrupted and hands the event on at once', async () => {
      const leaving = await instance();
      const s = await shop((_, nth) => (nth === 1 ? 'hang' : 200));
      const answer = await s.client.checkout(checkoutParams({ Capture: false }), card());
      const [event] = await events({ resourceId: answer.OrderId });

      void leaving.app.get(NotificationDeliveryService).deliverDue();
      await deliverUntil(() => receiver.requests(s.route).length === 1, []);
      const closing = Date.now();
      await retire(leaving);
      expect(Date.now() - closing).toBeLessThan(5_000);

      await deliverUntil(() => receiver.delivered(s.route).length === 1);
      const shown = await detail(s.user, event.id);
      expect(shown).toMatchObject({ State: 'Delivered', Attempts: 2 });
      expect(shown.AttemptLog).toEqual([
        expect.objectContaining({ Attempt: 1, Error: 'interrupted: the instance shut down' }),
        expect.objectContaining({ Attempt: 2, StatusCode: 200 }),
      ]);
    });
  });
});
