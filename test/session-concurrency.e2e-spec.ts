import type { Response } from 'supertest';
import { billingProfile, sessionBody } from './setup/factories';
import { TransactionRunner } from '../src/common/database/transaction-runner';
import { IdempotencyRecord } from '../src/common/idempotency/idempotency-record.entity';
import { IdempotencyService } from '../src/common/idempotency/idempotency.service';
import { Credentials, startTestApp, TestApp } from './setup/test-app';

/**
 * Races: many requests for the same thing at once. Every request is its own supertest object
 * (its own connection), all built first and then started together, so that they really overlap.
 */
describe('Session interface: concurrency and Idempotency-Key', () => {
  let t: TestApp;
  let merchant: Credentials;

  beforeAll(async () => {
    t = await startTestApp();
    merchant = await t.merchantUser();
  });
  afterAll(() => t.close());

  const post = (body: object, who = merchant) => t.http().post('/v2.22/session').auth(who.username, who.password).send(body);
  const put = (id: string, body: object, who = merchant) =>
    t.http().put(`/v2.22/session/${id}`).auth(who.username, who.password).send(body);
  const get = (id: string, who = merchant) => t.http().get(`/v2.22/session/${id}`).auth(who.username, who.password);
  const cancel = (id: string, who = merchant) => t.http().delete(`/v2.22/session/${id}`).auth(who.username, who.password);

  /**
   * Starts every request in the same tick and waits for all of them. With `held`, the database is made
   * to wait until every request has asked for its first unit of work, so that they all meet there: on
   * SQLite (synchronous driver, one connection) a request otherwise often runs start to end before the
   * next one is even read, and the race would never happen.
   */
  const race = async (held: boolean, requests: PromiseLike<Response>[]): Promise<Response[]> => {
    const release = held ? holdTransactions(requests.length) : () => undefined;
    try {
      return await Promise.all(requests.map((r) => Promise.resolve(r)));
    } finally {
      release();
    }
  };

  /** Holds the first `n` units of work until all n are waiting (or a timeout), then lets them go together. */
  const holdTransactions = (n: number, timeoutMs = 3000): (() => void) => {
    const runner = t.app.get(TransactionRunner);
    const run = runner.run.bind(runner) as (work: unknown) => Promise<unknown>;
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const timer = setTimeout(open, timeoutMs);
    let waiting = 0;
    const spy = jest.spyOn(runner, 'run').mockImplementation(((work: unknown) => {
      if (++waiting >= n) open();
      return opened.then(() => run(work));
    }) as TransactionRunner['run']);
    return () => {
      clearTimeout(timer);
      spy.mockRestore();
    };
  };

  const count = async (sql: string, params: unknown[] = []): Promise<number> => {
    const rows: { n: number | string }[] = await t.dataSource.query(sql, params);
    return Number(rows[0].n);
  };
  const sessionsWithReference = (reference: string) =>
    count('SELECT COUNT(*) AS n FROM payment_session WHERE merchant_reference = ?', [reference]);
  const profilesNamed = (prefix: string) => count('SELECT COUNT(*) AS n FROM billing_profile WHERE name LIKE ?', [`${prefix}%`]);

  const DUPLICATE_REQUEST = { Code: 'DUPLICATE_REQUEST', Message: 'A request with this ID is currently in progress', RequestId: expect.any(String) };
  const statuses = (responses: Response[]) => responses.map((r) => r.status).sort();

  const CURRENCIES = ['USD', 'EUR', 'JPY'] as const;
  const DIGITS: Record<string, number> = { USD: 2, EUR: 2, JPY: 0 };

  /** A complete, valid update body whose every part says which request it came from. */
  const updateBody = (run: string, i: number) => {
    const currency = CURRENCIES[i % CURRENCIES.length];
    const scale = 10 ** DIGITS[currency];
    const items = Array.from({ length: 1 + (i % 3) }, (_, k) => ({
      Name: `u${i} item ${k}`,
      Amount: (100 * (i + 1) + k * 7 + (scale > 1 ? 25 : 0)) / scale,
      Quantity: 1 + ((i + k) % 4),
    }));
    return sessionBody({
      MerchantReference: `${run}-update-${i}`,
      Currency: currency,
      Items: items,
      TaxAmount: (i * 13) / scale,
      BillingProfile: billingProfile({ Name: `${run} updater ${i}` }),
    });
  };

  /** TotalAmount recomputed in integer minor units from the view's own items and tax. */
  const expectedTotal = (view: Record<string, any>): number => {
    const scale = 10 ** DIGITS[view.Currency];
    const minor = (amount: number) => Math.round(amount * scale);
    const items = (view.Items as { Amount: number; Quantity: number }[]).reduce((sum, item) => sum + minor(item.Amount) * item.Quantity, 0);
    return (items + minor(view.TaxAmount ?? 0)) / scale;
  };

  let keyCounter = 0;
  const newKey = () => `idem-${Date.now()}-${++keyCounter}`;
  const postWithKey = (idempotencyKey: string, body: object, who = merchant) => post(body, who).set('Idempotency-Key', idempotencyKey);

  describe.each([
    { mode: 'as the requests arrive', held: false },
    { mode: 'all held at the database until every request has arrived', held: true },
  ])('races, $mode', ({ held }) => {
    it('20 POSTs with one MerchantReference: one 201, nineteen 409 DUPLICATE_MERCHANT_REFERENCE_ID, one session, one new profile', async () => {
      const reference = `race-${Date.now()}-${held}`;
      const prefix = `Racer ${reference}`;
      const bodies = Array.from({ length: 20 }, (_, i) =>
        sessionBody({ MerchantReference: reference, BillingProfile: billingProfile({ Name: `${prefix} #${i}` }) }),
      );
      const responses = await race(held, bodies.map((body) => post(body)));

      const created = responses.filter((r) => r.status === 201);
      expect(statuses(responses)).toEqual([201, ...Array(19).fill(409)]);
      for (const res of responses.filter((r) => r.status === 409)) {
        expect(res.body).toEqual({ Code: 'DUPLICATE_MERCHANT_REFERENCE_ID', Message: 'Session with merchant reference already exists', RequestId: expect.any(String) });
      }
      expect(created[0].body.MerchantReference).toBe(reference);

      expect(await sessionsWithReference(reference)).toBe(1);
      // The losers' billing profiles were rolled back with their sessions: only the winner's remains.
      expect(await profilesNamed(prefix)).toBe(1);
      expect(created[0].body.BillingProfile.Name).toMatch(new RegExp(`^${prefix} #\\d+$`));
      expect((await get(created[0].body.SessionId)).body).toEqual(created[0].body);
    });

    it('an update and two creates taking the same new MerchantReference: exactly one wins', async () => {
      const reference = `swap-${Date.now()}-${held}`;
      const existing = await post(sessionBody());
      expect(existing.status).toBe(201);
      const responses = await race(held, [
        put(existing.body.SessionId, sessionBody({ MerchantReference: reference })),
        post(sessionBody({ MerchantReference: reference })),
        post(sessionBody({ MerchantReference: reference })),
      ]);
      expect(responses.filter((r) => r.status < 300)).toHaveLength(1);
      for (const res of responses.filter((r) => r.status >= 300)) {
        expect(res.status).toBe(409);
        expect(res.body.Code).toBe('DUPLICATE_MERCHANT_REFERENCE_ID');
      }
      expect(await sessionsWithReference(reference)).toBe(1);
      // The update's lock was released whatever happened.
      expect((await put(existing.body.SessionId, sessionBody())).status).toBe(200);
    });

    it("10 PUTs of one session: each 200 or 409 DUPLICATE_REQUEST, and the session is exactly one winner's body", async () => {
      const created = await post(sessionBody());
      expect(created.status).toBe(201);
      const id = created.body.SessionId;
      const run = `upd-${Date.now()}-${held}`;
      const bodies = Array.from({ length: 10 }, (_, i) => updateBody(run, i));

      const responses = await race(held, bodies.map((body) => put(id, body)));

      const winners = responses.filter((r) => r.status === 200);
      for (const res of responses) {
        expect([200, 409]).toContain(res.status);
        if (res.status === 409) expect(res.body).toEqual(DUPLICATE_REQUEST);
      }
      expect(winners.length).toBeGreaterThanOrEqual(1);
      // When they all meet, only one can hold the session at a time.
      if (held) expect(winners.length).toBeLessThan(responses.length);
      // Each winner's response is its own request, whole.
      for (const res of winners) {
        const sent = bodies.find((body) => body.MerchantReference === res.body.MerchantReference)!;
        expect(res.body).toMatchObject({
          SessionId: id,
          State: 'CREATED',
          Currency: sent.Currency,
          Items: sent.Items,
          TaxAmount: sent.TaxAmount,
          BillingProfile: expect.objectContaining({ Name: (sent.BillingProfile as { Name: string }).Name }),
        });
        expect(res.body.TotalAmount).toBe(expectedTotal(res.body));
      }

      const final = await get(id);
      expect(final.status).toBe(200);
      const matching = winners.filter((res) => JSON.stringify(res.body) === JSON.stringify(final.body));
      expect(matching).toHaveLength(1);
      expect(final.body).toEqual(matching[0].body);
      expect(final.body.TotalAmount).toBe(expectedTotal(final.body));
      // Nothing of the losers remains: only the final reference is taken, one new profile per winner.
      for (const body of bodies) {
        const reference = body.MerchantReference as string;
        expect(await sessionsWithReference(reference)).toBe(reference === final.body.MerchantReference ? 1 : 0);
      }
      expect(await profilesNamed(`${run} updater`)).toBe(winners.length);

      // The lock was released: a later single update goes through.
      const after = await put(id, updateBody(run, 42));
      expect(after.status).toBe(200);
      expect(after.body.MerchantReference).toBe(`${run}-update-42`);
      expect((await get(id)).body).toEqual(after.body);
    });

    it('a cancel racing updates: the session ends CANCELLED or CREATED with one whole body, never half-way', async () => {
      const created = await post(sessionBody());
      const id = created.body.SessionId;
      const run = `mix-${Date.now()}-${held}`;
      const bodies = Array.from({ length: 5 }, (_, i) => updateBody(run, i));
      const responses = await race(held, [...bodies.map((body) => put(id, body)), cancel(id), cancel(id)]);
      for (const res of responses) {
        expect([200, 204, 409]).toContain(res.status);
        if (res.status === 409) expect(['DUPLICATE_REQUEST', 'INVALID_SESSION_STATE']).toContain(res.body.Code);
      }
      const final = (await get(id)).body;
      const winners = responses.slice(0, 5).filter((r) => r.status === 200);
      const cancelled = responses.slice(5).filter((r) => r.status === 204);
      expect(cancelled.length).toBeLessThanOrEqual(1);
      expect(final.State).toBe(cancelled.length === 1 ? 'CANCELLED' : 'CREATED');
      // Whatever the order, the stored content is the original or one successful update's, whole.
      const withoutState = ({ State, ...rest }: Record<string, unknown>) => rest;
      expect([created.body, ...winners.map((r) => r.body)].map(withoutState)).toContainEqual(withoutState(final));
      expect(final.TotalAmount).toBe(expectedTotal(final));
    });

    it('10 DELETEs of one session: exactly one 204, the others 409, and the session is CANCELLED', async () => {
      const created = await post(sessionBody());
      const id = created.body.SessionId;

      const responses = await race(held, Array.from({ length: 10 }, () => cancel(id)));

      expect(responses.filter((r) => r.status === 204)).toHaveLength(1);
      for (const res of responses.filter((r) => r.status !== 204)) {
        expect(res.status).toBe(409);
        expect([
          { Code: 'INVALID_SESSION_STATE', Message: 'Session cannot be CANCELLED as it is already CANCELLED', RequestId: expect.any(String) },
          DUPLICATE_REQUEST,
        ]).toContainEqual(res.body);
      }
      expect((await get(id)).body.State).toBe('CANCELLED');
      const again = await cancel(id);
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ Code: 'INVALID_SESSION_STATE', Message: 'Session cannot be CANCELLED as it is already CANCELLED', RequestId: expect.any(String) });
    });

    it('10 POSTs with one Idempotency-Key and body: one session; each response is it (201) or 409 DUPLICATE_REQUEST', async () => {
      const idempotencyKey = newKey();
      const body = sessionBody();
      const responses = await race(held, Array.from({ length: 10 }, () => postWithKey(idempotencyKey, body)));

      expect(await sessionsWithReference(body.MerchantReference as string)).toBe(1);
      const stored: { id: string }[] = await t.dataSource.query('SELECT id FROM payment_session WHERE merchant_reference = ?', [
        body.MerchantReference,
      ]);
      for (const res of responses) {
        expect([201, 409]).toContain(res.status);
        if (res.status === 201) expect(res.body.SessionId).toBe(stored[0].id);
        else expect(res.body).toEqual(DUPLICATE_REQUEST);
      }
      if (held) expect(responses.some((r) => r.status === 409)).toBe(true);
      const originals = responses.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined);
      expect(originals).toHaveLength(1);
      // Once the first has finished, a retry replays it.
      const retry = await postWithKey(idempotencyKey, body);
      expect(retry.status).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toEqual(originals[0].body);
    });

    it('8 PUTs with one Idempotency-Key: the update runs once; the others replay it or are 409 DUPLICATE_REQUEST', async () => {
      const created = await post(sessionBody());
      const id = created.body.SessionId;
      const idempotencyKey = newKey();
      const payer = `Payer ${idempotencyKey}`;
      const body = sessionBody({
        Currency: 'JPY',
        Items: [{ Name: 'Tea', Amount: 1200, Quantity: 3 }],
        BillingProfile: billingProfile({ Name: payer }),
      });
      const responses = await race(held, Array.from({ length: 8 }, () => put(id, body).set('Idempotency-Key', idempotencyKey)));
      const ok = responses.filter((r) => r.status === 200);
      for (const res of responses) {
        expect([200, 409]).toContain(res.status);
        if (res.status === 409) expect(res.body).toEqual(DUPLICATE_REQUEST);
      }
      expect(ok.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
      for (const res of ok) expect(res.body).toEqual(ok[0].body);
      expect(ok[0].body.TotalAmount).toBe(3600);
      expect((await get(id)).body).toEqual(ok[0].body);
      // The update ran once: one new billing profile, not one per request.
      expect(await profilesNamed(payer)).toBe(1);
    });
  });

  describe('a failed update releases the session', () => {
    it('after a validation error, an unknown profile and a duplicate reference, the next PUT and a cancel go through', async () => {
      const created = await post(sessionBody());
      const id = created.body.SessionId;

      const invalid = await put(id, sessionBody({ Items: [{ Name: 'x', Amount: -1, Quantity: 1 }] }));
      expect(invalid.status).toBe(400);
      expect(invalid.body.Code).toBe('INVALID_REQUEST');
      expect((await get(id)).body).toEqual(created.body);
      expect((await put(id, sessionBody({ MerchantReference: `after-invalid-${Date.now()}` }))).status).toBe(200);
      const current = (await get(id)).body;

      // Passes the DTO, fails after the lock is taken (the referenced profile does not exist).
      const unknownProfile = await put(id, sessionBody({ BillingProfile: undefined, BillingProfileReference: 'no-such-profile' }));
      expect(unknownProfile.status).toBe(400);
      expect(unknownProfile.body.FieldErrors).toEqual([expect.objectContaining({ Field: 'BillingProfileReference' })]);

      // Fails on the unique MerchantReference inside the update's transaction.
      const other = await post(sessionBody());
      const duplicate = await put(id, sessionBody({ MerchantReference: other.body.MerchantReference }));
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.Code).toBe('DUPLICATE_MERCHANT_REFERENCE_ID');
      expect((await get(id)).body).toEqual(current);

      const next = await put(id, sessionBody({ MerchantReference: `after-failures-${Date.now()}` }));
      expect(next.status).toBe(200);
      // ...and a cancel is not refused as "in progress" either.
      expect((await cancel(id)).status).toBe(204);
    });
  });

  describe('Idempotency-Key', () => {
    it('the same key and body twice: the first response replayed with Idempotent-Replayed, one session only', async () => {
      const idempotencyKey = newKey();
      const body = sessionBody();
      const first = await postWithKey(idempotencyKey, body);
      const second = await postWithKey(idempotencyKey, body);

      expect(first.status).toBe(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      expect(second.status).toBe(201);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.body).toEqual(first.body);
      expect(await sessionsWithReference(body.MerchantReference as string)).toBe(1);
    });

    it('a claim abandoned by an instance that died is taken over by the retry after a minute, once', async () => {
      const idempotencyKey = newKey();
      const body = sessionBody();
      const requestHash = IdempotencyService.hashRequest('POST', '/v2.22/session', body);
      const row = { merchantId: merchant.merchantId!, key: idempotencyKey, requestHash, responseStatus: null, responseBody: null };
      // In flight since 30 s: still someone's, so a retry is told to wait.
      await t.dataSource.getRepository(IdempotencyRecord).insert({ ...row, createdAt: new Date(Date.now() - 30_000) });
      expect((await postWithKey(idempotencyKey, body)).status).toBe(409);
      // In flight since 2 minutes: abandoned (requests time out long before); of three retries one runs it.
      await t.dataSource.getRepository(IdempotencyRecord).update({ merchantId: row.merchantId, key: idempotencyKey }, { createdAt: new Date(Date.now() - 120_000) });
      const retries = await Promise.all([1, 2, 3].map(() => postWithKey(idempotencyKey, body)));
      // One runs it; the others wait (409) or, once it finished, get its answer replayed.
      expect(retries.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
      for (const retry of retries) expect([201, 409]).toContain(retry.status);
      expect(new Set(retries.filter((r) => r.status === 201).map((r) => r.body.SessionId)).size).toBe(1);
      expect(await sessionsWithReference(body.MerchantReference as string)).toBe(1);
    });

    it('the same key with a different body is 422 IDEMPOTENCY_KEY_MISMATCH and creates nothing', async () => {
      const idempotencyKey = newKey();
      const first = await postWithKey(idempotencyKey, sessionBody());
      expect(first.status).toBe(201);
      const otherBody = sessionBody();
      const mismatch = await postWithKey(idempotencyKey, otherBody);
      expect(mismatch.status).toBe(422);
      expect(mismatch.body).toEqual({
        Code: 'IDEMPOTENCY_KEY_MISMATCH',
        Message: 'Idempotency-Key was already used with a different request',
        RequestId: expect.any(String),
      });
      expect(await sessionsWithReference(otherBody.MerchantReference as string)).toBe(0);
    });

    it('a first response that was a 4xx is replayed as the same 4xx', async () => {
      const idempotencyKey = newKey();
      const body = sessionBody({ Currency: 'usd' });
      const first = await postWithKey(idempotencyKey, body);
      expect(first.status).toBe(400);
      expect(first.body.Code).toBe('INVALID_REQUEST');
      const second = await postWithKey(idempotencyKey, body);
      expect(second.status).toBe(400);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.body).toEqual({ ...first.body, RequestId: second.headers['x-request-id'] });

      // The same for a 409 of the service.
      const taken = await post(sessionBody());
      const conflictKey = newKey();
      const conflictBody = sessionBody({ MerchantReference: taken.body.MerchantReference });
      const conflict = await postWithKey(conflictKey, conflictBody);
      expect(conflict.status).toBe(409);
      const replay = await postWithKey(conflictKey, conflictBody);
      expect(replay.status).toBe(409);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual({ ...conflict.body, RequestId: replay.headers['x-request-id'] });
    });

    it('keys are per merchant: another merchant using the same key gets its own session', async () => {
      const other = await t.merchantUser();
      const idempotencyKey = newKey();
      const body = sessionBody();
      const mine = await postWithKey(idempotencyKey, body);
      const theirs = await postWithKey(idempotencyKey, body, other);
      expect(mine.status).toBe(201);
      expect(theirs.status).toBe(201);
      expect(theirs.headers['idempotent-replayed']).toBeUndefined();
      expect(theirs.body.SessionId).not.toBe(mine.body.SessionId);
      expect(await sessionsWithReference(body.MerchantReference as string)).toBe(2);
      // Each merchant's retry replays its own response.
      expect((await postWithKey(idempotencyKey, body, other)).body.SessionId).toBe(theirs.body.SessionId);
      expect((await postWithKey(idempotencyKey, body)).body.SessionId).toBe(mine.body.SessionId);
    });

    it('PUT replays too, and the same key on another session is a different request (422)', async () => {
      const created = await post(sessionBody());
      const id = created.body.SessionId;
      const idempotencyKey = newKey();
      const body = sessionBody({ Currency: 'EUR', Items: [{ Name: 'Mug', Amount: 8.5, Quantity: 2 }] });

      const first = await put(id, body).set('Idempotency-Key', idempotencyKey);
      expect(first.status).toBe(200);
      expect(first.body.TotalAmount).toBe(17);
      // Changed by a request without the key in between; the retry still answers as the first time...
      const changed = await put(id, sessionBody());
      expect(changed.status).toBe(200);
      const retry = await put(id, body).set('Idempotency-Key', idempotencyKey);
      expect(retry.status).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toEqual(first.body);
      // ...and does not run the update again.
      expect((await get(id)).body).toEqual(changed.body);

      const elsewhere = await post(sessionBody());
      const mismatch = await put(elsewhere.body.SessionId, body).set('Idempotency-Key', idempotencyKey);
      expect(mismatch.status).toBe(422);
      expect(mismatch.body.Code).toBe('IDEMPOTENCY_KEY_MISMATCH');
    });

    it('a malformed Idempotency-Key is 400 INVALID_REQUEST', async () => {
      const res = await postWithKey('has space', sessionBody());
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ Code: 'INVALID_REQUEST', FieldErrors: [expect.objectContaining({ Field: 'Idempotency-Key' })] });
    });
  });
});
