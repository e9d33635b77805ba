import { existsSync, mkdirSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo, createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { Browser, chromium } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`, done by .ci/run); playwright never downloads one. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: run apt-get install -y chromium (or set CHROMIUM_PATH)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'],
  });
}

/** A free loopback port, so that the service can be told its PUBLIC_URL before it listens. */
export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Where the test run keeps screenshots (git-ignored). */
export function artifactPath(name: string): string {
  const dir = join(__dirname, '..', '..', 'test-results', 'screenshots');
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}

export interface MerchantSite {
  origin: string;
  close(): Promise<void>;
}

/**
 * A merchant's shop on another origin: /checkout?session=…&locale=…&theme=… mounts the component
 * from the service; /complete and /cart are the CompleteUrl and CancelUrl pages.
 */
export async function startMerchantSite(serviceOrigin: string): Promise<MerchantSite> {
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    response.setHeader('Content-Type', 'text/html; charset=utf-8');
    if (url.pathname === '/checkout') {
      const options = JSON.stringify({
        sessionId: url.searchParams.get('session'),
        ...(url.searchParams.get('locale') ? { locale: url.searchParams.get('locale') } : {}),
        ...(url.searchParams.get('theme') ? { theme: url.searchParams.get('theme') } : {}),
      });
      response.end(`<!doctype html><html lang="en"><head><title>Shop checkout</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><h1>Example Shop</h1><div id="pay-here"></div>
<script src="${serviceOrigin}/component.js"></script>
<script>window.events = []; window.addEventListener('message', function (e) { window.events.push(e.data && e.data.type); });
window.handle = PaymentComponent.mount('#pay-here', ${options});</script></body></html>`);
      return;
    }
    response.end(`<!doctype html><html lang="en"><head><title>${url.pathname === '/complete' ? 'Thank you' : 'Cart'}</title></head><body><h1>${url.pathname}</h1></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
