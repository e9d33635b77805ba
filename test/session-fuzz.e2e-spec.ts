import fc from 'fast-check';
import type { Response } from 'supertest';
import { billingProfile, sessionBody } from './setup/factories';
import { Credentials, startTestApp, TestApp } from './setup/test-app';

/**
 * Property tests: random and malformed bodies thrown at POST and PUT /session. Whatever arrives, the
 * service answers below 500 with the error object, and a refused request changes nothing.
 * fast-check prints the failing input (shrunk) and the seed to replay it with.
 */
describe('Session interface: fuzzing the request bodies', () => {
  let t: TestApp;
  let merchant: Credentials;
  let existingProfileId: string;
  const EXISTING_PROFILE_REFERENCE = 'fuzz-existing-profile';

  beforeAll(async () => {
    t = await startTestApp();
    merchant = await t.merchantUser();
    // A profile that bodies may name by reference or id.
    const seeded = await post(richBody('fuzz-seed', 'profile', { BillingProfileReference: EXISTING_PROFILE_REFERENCE }));
    expect(seeded.status).toBe(201);
    existingProfileId = seeded.body.BillingProfileId;
  });
  afterAll(() => t.close());

  const RUNS = { small: 100, medium: 200, large: 300 };
  const TIMEOUT = 120_000;

  // ---------------------------------------------------------------- HTTP and database helpers

  const post = (body: object) => t.http().post('/v2.22/session').auth(merchant.username, merchant.password).send(body);
  const get = (id: string) => t.http().get(`/v2.22/session/${id}`).auth(merchant.username, merchant.password);
  /** Sends the text exactly as given, declared as JSON, whether it is JSON or not. */
  const sendRaw = (method: 'post' | 'put', path: string, text: string) =>
    t.http()[method](path).auth(merchant.username, merchant.password).set('Content-Type', 'application/json').send(text);

  interface Counts {
    sessions: number;
    profiles: number;
  }
  const counts = async (): Promise<Counts> => {
    const [sessions, profiles] = await Promise.all(
      ['payment_session', 'billing_profile'].map(async (table) => {
        const rows: { n: number | string }[] = await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`);
        return Number(rows[0].n);
      }),
    );
    return { sessions, profiles };
  };

  /** Status below 500, and every error is the spec's object with an upper-case code. */
  const expectErrorContract = (res: Response) => {
    expect(res.status).toBeLessThan(500);
    if (res.status >= 400) {
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual(expect.objectContaining({ Code: expect.stringMatching(/^[A-Z_]+$/), Message: expect.any(String) }));
      expect(res.body.Message.length).toBeGreaterThan(0);
      if (res.body.FieldErrors !== undefined) {
        expect(res.body.FieldErrors).toEqual(
          expect.arrayContaining([expect.objectContaining({ Field: expect.any(String), Code: expect.stringMatching(/^[A-Z_]+$/) })]),
        );
      }
      // One request at a time: nothing can be "in progress", so a lock must never be left behind.
      expect(res.body.Code).not.toBe('DUPLICATE_REQUEST');
    }
  };

  /** POST: a refusal changes no row; a 201 adds exactly one session (and at most one profile) and reads back as sent. */
  const checkPost = async (res: Response, before: Counts) => {
    expectErrorContract(res);
    const after = await counts();
    if (res.status === 201) {
      expect(after.sessions).toBe(before.sessions + 1);
      expect(after.profiles - before.profiles).toBeGreaterThanOrEqual(0);
      expect(after.profiles - before.profiles).toBeLessThanOrEqual(1);
      expect((await get(res.body.SessionId)).body).toEqual(res.body);
    } else {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(after).toEqual(before);
    }
  };

  /** The session every PUT targets; re-read before each run, as a successful PUT legitimately changes it. */
  let target: { id: string; view: Record<string, unknown> };
  const ensureTarget = async () => {
    if (!target) {
      const created = await post(richBody(`fuzz-target-${Date.now()}`, 'profile'));
      expect(created.status).toBe(201);
      target = { id: created.body.SessionId, view: created.body };
    }
    const current = await get(target.id);
    expect(current.status).toBe(200);
    target.view = current.body;
    return target;
  };

  /** PUT: a refusal changes no row and leaves the session exactly as it was; a 200 is what GET returns after. */
  const checkPut = async (res: Response, before: Counts, sessionBefore: Record<string, unknown>) => {
    expectErrorContract(res);
    const after = await counts();
    const stored = await get(target.id);
    expect(stored.status).toBe(200);
    if (res.status === 200) {
      expect(after.sessions).toBe(before.sessions);
      expect(stored.body).toEqual(res.body);
    } else {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(after).toEqual(before);
      expect(stored.body).toEqual(sessionBefore);
    }
  };

  // ---------------------------------------------------------------- arbitraries

  type BillingKind = 'profile' | 'reference' | 'id';

  /** A valid body using most of the optional parts, so that mutations reach every rule. */
  function richBody(reference: string, billing: BillingKind, profileOverrides: Record<string, unknown> = {}): Record<string, unknown> {
    const body: Record<string, unknown> = {
      ...sessionBody({ MerchantReference: reference, BillingProfile: billingProfile({ Name: 'Fuzz Payer', ...profileOverrides }) }),
      Items: [
        { Name: 'T-shirt', Amount: 19.99, Quantity: 2 },
        { Name: 'Socks', Amount: 5, Quantity: 1 },
      ],
      TaxAmount: 1.5,
      Discounts: [{ Name: 'Promo', Amount: 2 }],
      ShippingDetails: {
        ShippingAmount: 5,
        DutyAmount: 2.5,
        Name: 'Jo Doe',
        Email: 'jo@example.com',
        Phone: '+1 416 555 0100',
        Address: { Street: '1 Main St', City: 'Toronto', Region: 'ON', Country: 'CA', Postcode: 'M5V 2T6' },
      },
      ViaAgent: false,
      AllowContract: true,
      OpenContract: false,
    };
    if (billing !== 'profile') delete body.BillingProfile;
    if (billing === 'reference') body.BillingProfileReference = EXISTING_PROFILE_REFERENCE;
    if (billing === 'id') body.BillingProfileId = existingProfileId;
    return body;
  }

  /** A number token written into the JSON text as is (1e400 parses to Infinity, big integers lose precision...). */
  const RAW = (literal: string) => `@@raw(${literal})@@`;
  /** JSON text too deep for JSON.stringify (the test's own stack), kept aside and spliced into the text. */
  const deepTexts: string[] = [];
  const DEEP = (text: string) => `@@deep(${deepTexts.push(text) - 1})@@`;
  const toJsonText = (value: unknown): string =>
    (JSON.stringify(value) ?? 'null')
      .replace(/"@@raw\((.*?)\)@@"/g, (_, literal: string) => literal)
      .replace(/"@@deep\((\d+)\)@@"/g, (_, index: string) => deepTexts[Number(index)]);

  const nastyNumber = fc.oneof(
    fc.double(),
    fc.integer(),
    fc.constantFrom(-1, 0, 0.5, 1.5, -0.01, 0.001, 19.999, 1e12, 1e12 + 0.01, 2 ** 53, 2 ** 53 + 2, 1e21, 1e308, 5e-324, 0.1 + 0.2, 1_000_001),
    fc.constantFrom('1e400', '-1e400', '-0', '123456789012345678901234567890', '0.0000000000000000000000001', '1E2', '1.000', '1e-7').map(RAW),
  );
  const nastyString = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        '', ' ', 'NaN', 'Infinity', '-Infinity', '1e5', '0x10', 'null', 'true', '19.99', '{}', '[]', '\u0000', '\ud800', 'a\udfff',
        '\u2764\ufe0f', 'Ω≈ç√∫', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', 'ＵＳＤ', '<script>alert(1)</script>', "' OR 1=1 --", 'USD', 'usd', 'JPY', 'KWD', 'XXX',
        'CA', 'BR', 'CA-ON', 'ZZ-99', '{SessionId}', 'https://x', 'http://', 'javascript:alert(1)', '__proto__', '0000-00-00',
        '2099-02-30', '529.982.247-25', '00000000-0000-0000-0000-000000000000',
      ),
    },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
    // Lengths around the column limits, in characters that count differently in UTF-16, code points and bytes.
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom('x', 'é', '😀', 'a\ufe0f', 'e\u0301', '\ud800', '\u0000'), fc.integer({ min: 1, max: 600 }))
        .map(([unit, n]) => unit.repeat(n)),
    },
    // Long enough to pass or exceed the 100 kB body limit (413).
    { weight: 1, arbitrary: fc.integer({ min: 1000, max: 120_000 }).map((n) => 'y'.repeat(n)) },
  );
  const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
    { weight: 3, arbitrary: nastyNumber },
    { weight: 3, arbitrary: nastyString },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [{}], [null], [[]]) },
  );
  const nastyKey = fc.oneof(
    fc.constantFrom(
      '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'Items', 'items', 'MerchantReference ', '',
      'TotalAmount', 'SessionId', 'State', 'BillingProfileId', 'BillingProfileReference', 'BillingProfile', 'Birthdate', 'Phone',
    ),
    fc.string({ maxLength: 20 }),
  );

  type Mutation =
    | { op: 'drop'; at: number }
    | { op: 'replace'; at: number; value: unknown }
    | { op: 'addKey'; at: number; key: string; value: unknown }
    | { op: 'wrapInArray'; at: number }
    | { op: 'nest'; at: number; depth: number; kind: 'array' | 'object' };

  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.record({ op: fc.constant('drop' as const), at: fc.nat() }),
    fc.record({ op: fc.constant('replace' as const), at: fc.nat(), value: nastyValue }),
    fc.record({ op: fc.constant('addKey' as const), at: fc.nat(), key: nastyKey, value: nastyValue }),
    fc.record({ op: fc.constant('wrapInArray' as const), at: fc.nat() }),
    fc.record({
      op: fc.constant('nest' as const),
      at: fc.nat(),
      depth: fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 1, max: 40 }) }, { weight: 1, arbitrary: fc.integer({ min: 40, max: 20_000 }) }),
      kind: fc.constantFrom('array' as const, 'object' as const),
    }),
  );

  type Slot = { parent: Record<string, unknown> | unknown[]; key: string | number };
  /** Every place in the body that holds a value (and the root object itself for addKey). */
  const slotsOf = (value: unknown): Slot[] => {
    const slots: Slot[] = [];
    const visit = (node: unknown) => {
      if (Array.isArray(node)) node.forEach((child, i) => (slots.push({ parent: node, key: i }), visit(child)));
      else if (node !== null && typeof node === 'object') {
        for (const [key, child] of Object.entries(node)) slots.push({ parent: node as Record<string, unknown>, key }), visit(child);
      }
    };
    visit(value);
    return slots;
  };
  const setOwn = (target: object, key: string | number, value: unknown) =>
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  const nested = (depth: number, kind: 'array' | 'object', inner: unknown): unknown => {
    const [open, close] = kind === 'array' ? ['[', ']'] : ['{"Nested":', '}'];
    return DEEP(open.repeat(depth) + toJsonText(inner) + close.repeat(depth));
  };

  /** Applies the mutations in turn; `at` picks a slot modulo how many the body has at that point. */
  const mutate = (body: Record<string, unknown>, mutations: Mutation[]): Record<string, unknown> => {
    const root = structuredClone(body);
    for (const m of mutations) {
      const slots = slotsOf(root);
      const slot = slots[m.at % slots.length];
      const current = slot.parent[slot.key as never];
      switch (m.op) {
        case 'drop':
          if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 1);
          else delete slot.parent[slot.key];
          break;
        case 'replace':
          setOwn(slot.parent, slot.key, m.value);
          break;
        case 'addKey': {
          const objects = [root, ...slots.map((s) => s.parent[s.key as never] as unknown)].filter(
            (v): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v),
          );
          setOwn(objects[m.at % objects.length], m.key, m.value);
          break;
        }
        case 'wrapInArray':
          setOwn(slot.parent, slot.key, [current]);
          break;
        case 'nest':
          setOwn(slot.parent, slot.key, nested(m.depth, m.kind, current));
          break;
      }
    }
    return root;
  };

  /** fc.anything made into JSON text: boxed values, dates, maps, typed arrays, sparse arrays, odd keys... */
  const anythingAsJson = fc
    .anything({
      maxDepth: 4,
      withBoxedValues: true,
      withNullPrototype: true,
      withObjectString: true,
      withSparseArray: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withTypedArray: true,
      key: fc.oneof(fc.string(), nastyKey),
    })
    .map((value) => toJsonText(value));

  /** Text that is not JSON, or not quite: random characters, cut or spliced JSON, other syntaxes. */
  const notJsonText = (valid: string) =>
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.string({ maxLength: 200 }),
      fc.nat().map((n) => valid.slice(0, n % valid.length)),
      fc.tuple(fc.nat(), fc.string({ minLength: 1, maxLength: 5 })).map(([n, s]) => valid.slice(0, n % valid.length) + s + valid.slice(n % valid.length)),
      fc.constantFrom(
        '', ' ', 'null', 'true', '0', '"text"', 'NaN', 'Infinity', '{', '}', '[', '[1,2', '{"a":1}}', "{'MerchantReference':'x'}",
        '{"a":1,}', '\ufeff{}', '{"a":undefined}', '{"a":NaN}', '{"a":0x10}', '{"a":01}', '{"a":.5}', '{"a":1e}', '{a:1}',
        '<?xml version="1.0"?><a/>', 'MerchantReference=x&Currency=USD', '{"__proto__":{"polluted":true}}', '{"a":"\\ud800"}',
        '{"a":"\\u00"}', '[]', '[{}]', '{}', `${'['.repeat(5000)}${']'.repeat(5000)}`, `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`,
        `{"MerchantReference":"${'z'.repeat(200_000)}"}`,
      ),
    );

  /** Inputs that once ended in a 500, always tried first (slot 0 is MerchantReference). */
  const KNOWN_BAD: [BillingKind, Mutation[]][] = [
    // 20 000 nested arrays: stack overflow in the validation pipe.
    ['profile', [{ op: 'nest', at: 0, depth: 20_000, kind: 'array' }]],
    // 200 × "a" + U+FE0F: 200 characters for class-validator's MaxLength, 400 for MariaDB's VARCHAR(255).
    ['profile', [{ op: 'replace', at: 0, value: 'a\ufe0f'.repeat(200) }]],
    // An unpaired surrogate in an e-mail address: validator's isEmail throws URIError.
    ['profile', [{ op: 'addKey', at: 0, key: 'BillingProfile', value: billingProfile({ Email: 'a\udfff@example.com' }) }]],
  ];

  let runCounter = 0;
  const freshReference = () => `fuzz-${Date.now().toString(36)}-${++runCounter}`;

  // ---------------------------------------------------------------- POST

  it(
    'POST: arbitrary JSON values (fc.jsonValue)',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.jsonValue({ maxDepth: 5 }), async (value) => {
          const before = await counts();
          await checkPost(await sendRaw('post', '/v2.22/session', toJsonText(value)), before);
        }),
        { numRuns: RUNS.medium },
      );
    },
    TIMEOUT,
  );

  it(
    'POST: fc.anything turned into JSON (boxed values, dates, maps, sparse and typed arrays, __proto__ keys)',
    async () => {
      await fc.assert(
        fc.asyncProperty(anythingAsJson, async (text) => {
          const before = await counts();
          await checkPost(await sendRaw('post', '/v2.22/session', text), before);
        }),
        { numRuns: RUNS.medium },
      );
    },
    TIMEOUT,
  );

  it(
    'POST: a valid body with keys dropped, values replaced, unknown keys, arrays for objects, deep nesting',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom<BillingKind>('profile', 'profile', 'reference', 'id'),
          fc.array(mutation, { minLength: 1, maxLength: 4 }),
          async (billing, mutations) => {
            const body = mutate(richBody(freshReference(), billing), mutations);
            const before = await counts();
            await checkPost(await sendRaw('post', '/v2.22/session', toJsonText(body)), before);
          },
        ),
        { numRuns: RUNS.large, examples: KNOWN_BAD },
      );
    },
    TIMEOUT,
  );

  it(
    'POST: text that is not JSON, sent as application/json',
    async () => {
      const valid = JSON.stringify(richBody('fuzz-raw', 'profile'));
      await fc.assert(
        fc.asyncProperty(notJsonText(valid), async (text) => {
          const before = await counts();
          const res = await sendRaw('post', '/v2.22/session', text);
          await checkPost(res, before);
        }),
        { numRuns: RUNS.medium },
      );
    },
    TIMEOUT,
  );

  // ---------------------------------------------------------------- PUT

  it(
    'PUT: a valid body with keys dropped, values replaced, unknown keys, arrays for objects, deep nesting',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom<BillingKind>('profile', 'profile', 'reference', 'id'),
          fc.array(mutation, { minLength: 1, maxLength: 4 }),
          async (billing, mutations) => {
            const { id, view } = await ensureTarget();
            const body = mutate(richBody(freshReference(), billing), mutations);
            const before = await counts();
            await checkPut(await sendRaw('put', `/v2.22/session/${id}`, toJsonText(body)), before, view);
          },
        ),
        { numRuns: RUNS.large, examples: KNOWN_BAD },
      );
      // Whatever was thrown at it, the session still takes a plain update.
      const { id } = await ensureTarget();
      const after = await sendRaw('put', `/v2.22/session/${id}`, JSON.stringify(richBody(freshReference(), 'profile')));
      expect(after.status).toBe(200);
    },
    TIMEOUT,
  );

  it(
    'PUT: arbitrary JSON values and text that is not JSON',
    async () => {
      const valid = JSON.stringify(richBody('fuzz-raw-put', 'reference'));
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.jsonValue({ maxDepth: 5 }).map((v) => toJsonText(v)), anythingAsJson, notJsonText(valid)), async (text) => {
          const { id, view } = await ensureTarget();
          const before = await counts();
          await checkPut(await sendRaw('put', `/v2.22/session/${id}`, text), before, view);
        }),
        { numRuns: RUNS.medium },
      );
    },
    TIMEOUT,
  );

  it(
    'PUT/GET/DELETE: any path segment as the session id is 400 VALIDATION_ERROR or 404, never more',
    async () => {
      const { id: realId, view } = await ensureTarget();
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }),
            fc.uuid(),
            fc.constantFrom(realId.toUpperCase(), `${realId} `, `${realId}x`, realId.replace(/-/g, ''), '..', '%', 'null'),
          ),
          fc.constantFrom('get' as const, 'put' as const, 'delete' as const),
          async (segment, method) => {
            // The real id in any case is the session itself (ids are case-insensitive): only read it.
            fc.pre(method === 'get' || segment.toLowerCase() !== realId);
            const before = await counts();
            const path = `/v2.22/session/${encodeURIComponent(segment)}`;
            const req = t.http()[method](path).auth(merchant.username, merchant.password);
            const res = method === 'put' ? await req.send(richBody(freshReference(), 'reference')) : await req;
            expectErrorContract(res);
            if (res.status < 300) return;
            expect([400, 404, 405]).toContain(res.status);
            expect(await counts()).toEqual(before);
          },
        ),
        { numRuns: RUNS.small, examples: [[realId.toUpperCase(), 'get']] },
      );
      // Nothing above reached the session itself except to read it.
      expect((await get(realId)).body).toEqual(view);
    },
    TIMEOUT,
  );
});
