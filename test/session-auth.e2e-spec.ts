import { Credentials, startTestApp, TestApp } from './setup/test-app';
import { sessionBody } from './setup/factories';

describe('Session interface: authentication, roles and tenancy', () => {
  let t: TestApp;
  let merchant: Credentials;
  let other: Credentials;

  beforeAll(async () => {
    t = await startTestApp();
    merchant = await t.merchantUser();
    other = await t.merchantUser();
  });
  afterAll(() => t.close());

  const create = (who: Credentials, body = sessionBody()) =>
    t.http().post('/v2.22/session').auth(who.username, who.password).send(body);

  it('401 AUTHENTICATION_REQUIRED without credentials, with a WWW-Authenticate challenge', async () => {
    const res = await t.http().post('/v2.22/session').send(sessionBody());
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic realm=/);
    expect(res.body).toEqual({
      Code: 'AUTHENTICATION_REQUIRED',
      Message: 'Username/password must be supplied to access this resource',
      RequestId: res.headers['x-request-id'],
    });
  });

  it('401 AUTHENTICATION_REQUIRED with the "invalid" message for a wrong password or unknown user', async () => {
    for (const [username, password] of [[merchant.username, 'wrong-password'], ['nobody', 'whatever-pw']]) {
      const res = await t.http().get('/v2.22/session/7f1c2f7e-0b7a-4f0e-9a55-0e5c8c1d2e3f').auth(username, password);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBeDefined();
      expect(res.body).toEqual({ Code: 'AUTHENTICATION_REQUIRED', Message: 'Supplied username/password are invalid', RequestId: expect.any(String) });
    }
  });

  it('401 for a malformed Authorization header', async () => {
    const res = await t.http().get('/v2.22/session/7f1c2f7e-0b7a-4f0e-9a55-0e5c8c1d2e3f').set('Authorization', 'Bearer abc');
    expect(res.status).toBe(401);
    expect(res.body.Code).toBe('AUTHENTICATION_REQUIRED');
  });

  it('a readonly user may read but gets 403 NOT_AUTHORIZED on every write, and nothing changes', async () => {
    const created = await create(merchant);
    const readonly = await t.user(merchant.merchantId, 'readonly');
    const id = created.body.SessionId;

    const read = await t.http().get(`/v2.22/session/${id}`).auth(readonly.username, readonly.password);
    expect(read.status).toBe(200);

    const forbidden = { Code: 'NOT_AUTHORIZED', Message: 'User is not permitted to access this resource', RequestId: expect.any(String) };
    const post = await create(readonly);
    const put = await t.http().put(`/v2.22/session/${id}`).auth(readonly.username, readonly.password).send(sessionBody());
    const del = await t.http().delete(`/v2.22/session/${id}`).auth(readonly.username, readonly.password);
    for (const res of [post, put, del]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual(forbidden);
    }
    const after = await t.http().get(`/v2.22/session/${id}`).auth(merchant.username, merchant.password);
    expect(after.body).toEqual(created.body);
  });

  it('an admin cannot create sessions (403) but can read any merchant\'s session', async () => {
    const admin = await t.user(null, 'admin');
    expect((await create(admin)).status).toBe(403);
    const created = await create(merchant);
    const read = await t.http().get(`/v2.22/session/${created.body.SessionId}`).auth(admin.username, admin.password);
    expect(read.status).toBe(200);
    expect(read.body.SessionId).toBe(created.body.SessionId);
  });

  it("another merchant's session is 404 SESSION_NOT_FOUND for read, update and cancel, and stays untouched", async () => {
    const created = await create(merchant);
    const id = created.body.SessionId;
    const notFound = { Code: 'SESSION_NOT_FOUND', Message: 'No session exists for the given session ID', RequestId: expect.any(String) };

    const get = await t.http().get(`/v2.22/session/${id}`).auth(other.username, other.password);
    const put = await t.http().put(`/v2.22/session/${id}`).auth(other.username, other.password).send(sessionBody());
    const del = await t.http().delete(`/v2.22/session/${id}`).auth(other.username, other.password);
    for (const res of [get, put, del]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
    }
    const after = await t.http().get(`/v2.22/session/${id}`).auth(merchant.username, merchant.password);
    expect(after.body).toEqual(created.body);
  });

  it('merchant references and billing profile references are per merchant', async () => {
    const body = sessionBody({ MerchantReference: 'shared-ref' });
    (body.BillingProfile as Record<string, unknown>).BillingProfileReference = 'shared-profile';
    expect((await create(merchant, body)).status).toBe(201);
    expect((await create(other, body)).status).toBe(201);

    // ...and a reference names only the caller's own profile.
    const third = await t.merchantUser();
    const byReference = sessionBody({ BillingProfile: undefined, BillingProfileReference: 'shared-profile' });
    const res = await create(third, byReference);
    expect(res.status).toBe(400);
    expect(res.body.FieldErrors).toEqual([expect.objectContaining({ Field: 'BillingProfileReference' })]);
  });

  it('an unknown API version is 404 with the error object', async () => {
    const res = await t.http().get('/v9.99/session/7f1c2f7e-0b7a-4f0e-9a55-0e5c8c1d2e3f').auth(merchant.username, merchant.password);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ Code: 'NOT_FOUND', Message: expect.any(String), RequestId: expect.any(String) });
  });

  it('serves the OpenAPI document and the documentation page without a CDN', async () => {
    const spec = await t.http().get('/openapi.json');
    expect(spec.status).toBe(200);
    expect(spec.body.openapi).toMatch(/^3\./);
    expect(Object.keys(spec.body.paths)).toEqual(expect.arrayContaining(['/v2.22/session', '/v2.22/session/{SessionId}']));
    expect(spec.body.components.schemas.SessionRequestDto.required).toEqual(
      expect.arrayContaining(['MerchantReference', 'Currency', 'Items', 'AutoCapture']),
    );
    const page = await t.http().get('/docs/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('swagger-ui');
    expect(page.text).not.toMatch(/https?:\/\/(cdn|unpkg|cdnjs)/);
  });
});
