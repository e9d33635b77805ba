import { createHmac } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { runInNewContext } from 'node:vm';
import { MerchantService } from '../src/auth/merchant.service';
import { DeviceFingerprint } from '../src/checkout/fingerprint/device-fingerprint.entity';
import { FingerprintService } from '../src/checkout/fingerprint/fingerprint.service';
import { startTestApp, TestApp } from './setup/test-app';

const sign = (secret: string, text: string) => createHmac('sha256', secret).update(text, 'utf8').digest('base64');

/** Runs the script as a page would, with a minimal DOM, and returns the global it set and the frame it added. */
function runScript(script: string): { guid: string; frameSrc: string } {
  const appended: { src?: string; id?: string }[] = [];
  const context = {
    window: { screen: { width: 390, height: 844, colorDepth: 24 } },
    navigator: { language: 'pt-BR' },
    document: {
      body: { appendChild: (node: { src?: string }) => appended.push(node) },
      createElement: () => ({ style: {}, setAttribute() {} }),
      addEventListener() {},
    },
    encodeURIComponent,
    Date,
  } as Record<string, unknown>;
  runInNewContext(script, context);
  expect(appended).toHaveLength(1);
  expect(appended[0].id).toBe('gip_fingerprint');
  return { guid: context.gip_device_fingerprint as string, frameSrc: appended[0].src! };
}

describe('Checkout interface: device fingerprint', () => {
  let t: TestApp;
  let origin: string;
  let merchantId: string;
  let secret: string;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    origin = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const created = await t.app.get(MerchantService).create({ name: 'Fingerprint shop' });
    merchantId = created.merchant.id;
    secret = created.signingSecret;
  });
  afterAll(() => t.close());

  const scriptUrl = (text = JSON.stringify({ MerchantId: merchantId }), signature = sign(secret, text)) =>
    `${origin}/v2.22/fingerprint?${new URLSearchParams({ request: text, signature })}`;

  it('returns a signed script that sets gip_device_fingerprint and adds a hidden frame recording the device', async () => {
    const res = await fetch(scriptUrl());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/javascript/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const script = await res.text();
    expect(res.headers.get('signature')).toBe(sign(secret, script));

    const { guid, frameSrc } = runScript(script);
    expect(guid).toMatch(/^[0-9a-f-]{36}$/);
    const stored = await t.dataSource.getRepository(DeviceFingerprint).findOneByOrFail({ id: guid });
    expect(stored).toMatchObject({ merchantId, device: null, recordedAt: null });

    // The page's browser loads the frame (PUBLIC_URL points at localhost; the path is what matters).
    const frame = await fetch(`${origin}${new URL(frameSrc).pathname}${new URL(frameSrc).search}`, {
      headers: { 'User-Agent': 'Mozilla/5.0 (iPhone) TestBrowser', 'Accept-Language': 'pt-BR,pt;q=0.9' },
    });
    expect(frame.status).toBe(200);
    expect(frame.headers.get('content-type')).toMatch(/text\/html/);
    const recorded = await t.dataSource.getRepository(DeviceFingerprint).findOneByOrFail({ id: guid });
    expect(recorded.recordedAt).not.toBeNull();
    expect(JSON.parse(recorded.device!)).toEqual({
      userAgent: 'Mozilla/5.0 (iPhone) TestBrowser',
      language: 'pt-BR,pt;q=0.9',
      ip: expect.stringMatching(/127\.0\.0\.1/),
      screen: { w: '390', h: '844', d: '24', tz: expect.any(String), l: 'pt-BR' },
    });

    // A second report does not overwrite the first.
    await fetch(`${origin}/fingerprint/${guid}?w=1`, { headers: { 'User-Agent': 'Other' } });
    expect((await t.dataSource.getRepository(DeviceFingerprint).findOneByOrFail({ id: guid })).device).toBe(recorded.device);
  });

  it('each load gives a new GUID; checkout will accept only GUIDs issued to the same merchant', async () => {
    const a = runScript(await (await fetch(scriptUrl())).text()).guid;
    const b = runScript(await (await fetch(scriptUrl())).text()).guid;
    expect(a).not.toBe(b);
    const service = t.app.get(FingerprintService);
    expect(await service.isKnownDevice(merchantId, a)).toBe(true);
    const other = await t.app.get(MerchantService).create({ name: 'Other' });
    expect(await service.isKnownDevice(other.merchant.id, a)).toBe(false);
    expect(await service.isKnownDevice(merchantId, '3f2b8a9e-4c1d-4e7a-9b6f-1a2b3c4d5e6f')).toBe(false);
  });

  it.each([['an unknown GUID', '3f2b8a9e-4c1d-4e7a-9b6f-1a2b3c4d5e6f'], ['not a GUID', 'abc']])('the frame answers 404 for %s and records nothing', async (_, id) => {
    const before = await t.dataSource.getRepository(DeviceFingerprint).count();
    expect((await fetch(`${origin}/fingerprint/${id}?w=1`)).status).toBe(404);
    expect(await t.dataSource.getRepository(DeviceFingerprint).count()).toBe(before);
  });

  it('a wrong signature gets a signed 401 and issues no GUID', async () => {
    const before = await t.dataSource.getRepository(DeviceFingerprint).count();
    const res = await fetch(scriptUrl(undefined, sign('wrong', 'x')));
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(sign(secret, body.response)).toBe(body.signature);
    expect(JSON.parse(body.response).Error.Code).toBe('SignatureInvalid');
    expect(await t.dataSource.getRepository(DeviceFingerprint).count()).toBe(before);
  });
});
