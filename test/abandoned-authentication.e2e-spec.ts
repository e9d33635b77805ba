import { Clock } from '../src/common/clock/clock';
import { Scheduler } from '../src/common/scheduler/scheduler.service';
import { NotificationEvent } from '../src/notifications/notification-event.entity';
import { OrderEvent } from '../src/orders/order-event.entity';
import { Order } from '../src/orders/order.entity';
import { AbandonedAuthenticationJob } from '../src/payment-page/abandoned-authentication.job';
import { PaymentSession } from '../src/session/session.entity';
import { CARDS, card } from './setup/checkout';
import { sessionBody } from './setup/factories';
import { Credentials, startTestApp, TestApp } from './setup/test-app';

/**
 * A payment-page shopper who starts 3-D Secure and never comes back: the abandoned-authentications job
 * ends the step as a Decline would once PAYMENT_AUTHENTICATION_TIMEOUT_SECONDS (here the default,
 * 1800) have passed, driven over HTTP as the page does, with the clock moved forward.
 */
describe('Abandoned 3-D Secure / redirect steps of the payment page', () => {
  const TIMEOUT_MS = 1800_000;
  let t: TestApp;
  let user: Credentials;
  let clock: Clock;

  beforeAll(async () => {
    t = await startTestApp({ SCHEDULER_ENABLED: 'false' });
    user = await t.merchantUser();
    clock = t.app.get(Clock);
  });
  afterAll(() => t?.close());

  /** Moves the clock for the duration of `work`, and back. */
  const later = async <T>(ms: number, work: () => Promise<T>): Promise<T> => {
    clock.travel(ms);
    try {
      return await work();
    } finally {
      clock.travel(-ms);
    }
  };

  const newSession = async () => {
    const res = await t.http().post('/v2.22/session').auth(user.username, user.password).send(sessionBody());
    expect(res.status).toBe(201);
    return res.body.SessionId as string;
  };
  const pay = (sessionId: string, number: string) => t.http().post(`/pay/${sessionId}`).send({ PaymentMethod: 'CARD', Card: card(number) });
  /** A session paid with the challenge card: REDIRECTED, with the path of its 3-D Secure page. */
  const redirected = async (sessionId?: string) => {
    const id = sessionId ?? (await newSession());
    const res = await pay(id, CARDS.challenge);
    expect(res.body).toMatchObject({ Outcome: 'REDIRECTED', RedirectUrl: expect.stringContaining('/pay/order/') });
    const url = new URL(res.body.RedirectUrl as string);
    return { sessionId: id, path: url.pathname, token: url.searchParams.get('token')! };
  };
  const sessionOf = (id: string) => t.dataSource.getRepository(PaymentSession).findOneByOrFail({ id });
  const orderOf = (sessionId: string) => t.dataSource.getRepository(Order).findOneByOrFail({ sessionId });
  const runJob = () => t.app.get(AbandonedAuthenticationJob).run(clock.now());

  it('leaves a step alone before the timeout, then fails the order and reopens the session; a new card then pays it', async () => {
    const { sessionId, path, token } = await redirected();
    expect((await orderOf(sessionId)).state).toBe('Pending');

    // Due at once (first run), but nothing is old enough yet.
    const outcomes = await t.app.get(Scheduler).runDue();
    expect(outcomes).toEqual(expect.arrayContaining([{ name: 'abandoned-authentications', processed: 0 }]));
    expect(await later(TIMEOUT_MS - 60_000, runJob)).toBe(0);
    expect((await sessionOf(sessionId)).state).toBe('REDIRECTED');
    expect((await orderOf(sessionId)).state).toBe('Pending');

    // Past the timeout, from the scheduler itself (the job's next period has come too).
    const ran = await later(TIMEOUT_MS + 61_000, () => t.app.get(Scheduler).runDue());
    expect(ran).toEqual(expect.arrayContaining([{ name: 'abandoned-authentications', processed: 1 }]));
    const order = await orderOf(sessionId);
    expect(order).toMatchObject({ state: 'ProcessingFailed', action: null, attempts: 1 });
    expect((await sessionOf(sessionId)).state).toBe('CREATED');
    const events = await t.dataSource.getRepository(OrderEvent).find({ where: { orderId: order.id }, order: { sequence: 'ASC' } });
    expect(events.map((e) => [e.fromState, e.toState])).toEqual([[null, 'Processing'], ['Processing', 'Pending'], ['Pending', 'ProcessingFailed']]);
    expect(events[2].reason).toBe('the shopper did not complete the authentication in time');
    const notified = await t.dataSource.getRepository(NotificationEvent).findBy({ resourceId: order.id });
    expect(notified.map((n) => n.type)).toContain('ORDER_PROCESSING_FAILED');
    expect(await later(TIMEOUT_MS + 61_000, runJob)).toBe(0); // a second run changes nothing

    // The shopper comes back to the 3-D Secure page: an honest 404 page, not a 500, and nothing approved.
    const shown = await t.http().get(`${path}?token=${token}`);
    expect(shown.status).toBe(404);
    expect(shown.text).toContain('no longer open');
    const approved = await t.http().post(path).type('form').send({ token, decision: 'approve' });
    expect(approved.status).toBe(404);
    expect(approved.text).toContain('not completed in time');
    expect((await orderOf(sessionId)).state).toBe('ProcessingFailed');

    // Retry on the payment page: the same order, a second attempt, paid.
    const paid = await pay(sessionId, CARDS.visa);
    expect(paid.body).toMatchObject({ Outcome: 'COMPLETED', OrderId: order.id });
    expect(await orderOf(sessionId)).toMatchObject({ state: 'Processed', attempts: 2 });
    expect((await sessionOf(sessionId)).state).toBe('COMPLETED');
  });

  it('FAILS the session when the abandoned step was its last allowed attempt, as a third decline does', async () => {
    const sessionId = await newSession();
    for (let i = 0; i < 2; i++) expect((await pay(sessionId, CARDS.declined)).body).toMatchObject({ Outcome: 'DECLINED', CanRetry: true });
    await redirected(sessionId);
    expect((await orderOf(sessionId)).attempts).toBe(3);

    expect(await later(TIMEOUT_MS + 1000, runJob)).toBe(1);
    expect((await orderOf(sessionId)).state).toBe('ProcessingFailed');
    expect((await sessionOf(sessionId)).state).toBe('FAILED');
    const notified = await t.dataSource.getRepository(NotificationEvent).findBy({ resourceId: sessionId });
    expect(notified.map((n) => n.type)).toEqual(['SESSION_FAILED']);
    expect((await pay(sessionId, CARDS.visa)).status).toBe(409);
  });

  it('races the shopper finishing the step against the job: exactly one of them wins, never a 500', async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 6; round++) {
      const { sessionId, path, token } = await redirected();
      const decision = round % 3 === 2 ? 'decline' : 'approve';
      const [answer, ended] = await later(TIMEOUT_MS + 1000, () =>
        Promise.all([t.http().post(path).type('form').send({ token, decision }), runJob()]),
      );
      const order = await orderOf(sessionId);
      const session = await sessionOf(sessionId);
      expect([200, 404]).toContain(answer.status);
      if (ended === 1) {
        // The job won: the order failed once (by it), the session is open again, the shopper was told.
        outcomes.add('job');
        expect(order.state).toBe('ProcessingFailed');
        expect(session.state).toBe('CREATED');
        if (answer.status === 200) expect(answer.text).toContain('Payment not completed');
      } else {
        // The shopper's request moved the order, with the processor's one answer: the shopper's own, or the
        // job's decline when the job reached the processor first (it then found the order already moved).
        expect(ended).toBe(0);
        expect(answer.status).toBe(200);
        const approved = order.state === 'Processed';
        if (decision === 'decline') expect(approved).toBe(false);
        outcomes.add(approved || decision === 'decline' ? decision : 'job at the processor');
        expect(order.state).toBe(approved ? 'Processed' : 'ProcessingFailed');
        expect(session.state).toBe(approved ? 'COMPLETED' : 'CREATED');
        expect(answer.text).toContain(approved ? 'Payment approved' : 'Payment not completed');
      }
      // Never both: a completed session always has a paid order, and the order changed state only once after Pending.
      const events = await t.dataSource.getRepository(OrderEvent).findBy({ orderId: order.id, fromState: 'Pending' });
      expect(events).toHaveLength(1);
      if (session.state === 'COMPLETED') expect(order.state).toBe('Processed');
    }
    // Not asserted: which side wins depends on timing; at least one round ran to an outcome.
    expect(outcomes.size).toBeGreaterThan(0);
  });
});
