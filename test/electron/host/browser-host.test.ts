import { createServer, request as httpRequest } from 'node:http';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ipcErrorCodes } from '../../../shared/ipc/index.ts';
import { type BrowserHost, startBrowserHost } from '../../../electron/host/browser-host.ts';
import { CONTENT_SECURITY_POLICY } from '../../../electron/host/security-policy.ts';
import { loadLoopbackClient, pageFetch, streamWatchingFetch } from './loopback-client.ts';
import type { OutboxChanged } from '../../../shared/ipc/events.ts';
import { type KioskFixture, startKioskFixture } from '../kiosk/support.ts';
import { type RendererFixture, SECRET_TEXT, makeRendererFixture } from './renderer-fixture.ts';

interface RawReply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** A request exactly as written (fetch would normalise `..` and set its own headers). */
function raw(
  origin: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<RawReply> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: url.host, ...options.headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuv';

describe('the loopback browser host', () => {
  let fixture: KioskFixture;
  let renderer: RendererFixture;
  let host: BrowserHost;
  let ipcHeaders: Record<string, string>;

  beforeAll(async () => {
    fixture = await startKioskFixture({ services: { host: 'browser' } });
    renderer = await makeRendererFixture();
    host = await startBrowserHost({
      services: fixture.services,
      rendererDir: renderer.rendererDir,
      token: TOKEN,
    });
    ipcHeaders = {
      origin: host.origin,
      'x-kiosk-token': TOKEN,
      'content-type': 'application/json',
    };
  }, 60_000);

  afterAll(async () => {
    await host?.close();
    await fixture?.close();
    await renderer?.close();
  });

  it('listens on 127.0.0.1 only and prints the token in the fragment', () => {
    expect(host.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(host.url).toBe(`${host.origin}/#token=${TOKEN}`);
  });

  it('serves the renderer with the same CSP as the Electron window', async () => {
    const page = await raw(host.origin, { path: '/' });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.body).toContain('<script type="module"');
  });

  it('lets the browser keep the content-hashed files of the build, never the page naming them', async () => {
    // Vite's name for a built chunk: its content's hash, so a name never comes with other bytes.
    await writeFile(join(renderer.rendererDir, 'assets', 'main-B38XT8U2.js'), 'export {};');
    const hashed = await raw(host.origin, { path: '/assets/main-B38XT8U2.js' });
    expect(hashed.status).toBe(200);
    expect(hashed.headers['cache-control']).toBe('max-age=31536000, immutable');
    expect(hashed.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    for (const path of ['/', '/index.html', '/assets/app.js']) {
      expect((await raw(host.origin, { path })).headers['cache-control']).toBe('no-store');
    }
  });

  it.each([
    '/../secret.txt',
    '/../../etc/passwd',
    '/%2e%2e/secret.txt',
    '/%2e%2e%2fsecret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/..%5csecret.txt',
    '//etc/passwd',
    '/assets/leak.txt',
    '/up/secret.txt',
    '/index.html%00.js',
  ])('refuses %s', async (path) => {
    const reply = await raw(host.origin, { path });
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(reply.body).not.toContain(SECRET_TEXT);
  });

  it('refuses another Host name (DNS rebinding)', async () => {
    const reply = await raw(host.origin, { path: '/', headers: { host: 'evil.example' } });
    expect(reply.status).toBe(421);
  });

  it('answers a request with the token from the page origin', async () => {
    const reply = await raw(host.origin, {
      method: 'POST',
      path: '/ipc/getStatus',
      headers: ipcHeaders,
      body: '{}',
    });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({
      ok: true,
      value: { host: 'browser', demo: true },
    });
  });

  it.each([
    ['no token', { 'x-kiosk-token': '' }, 401, ipcErrorCodes.unauthorized],
    [
      'a wrong token',
      { 'x-kiosk-token': `${TOKEN.slice(0, -1)}x` },
      401,
      ipcErrorCodes.unauthorized,
    ],
    ['another origin', { origin: 'http://evil.example' }, 403, ipcErrorCodes.forbiddenSender],
    ['another port', { origin: 'http://127.0.0.1:1' }, 403, ipcErrorCodes.forbiddenSender],
    ['no origin', { origin: '' }, 403, ipcErrorCodes.forbiddenSender],
    ['a cross-site fetch', { 'sec-fetch-site': 'cross-site' }, 403, ipcErrorCodes.forbiddenSender],
    [
      'a form post',
      { 'content-type': 'application/x-www-form-urlencoded' },
      415,
      ipcErrorCodes.invalidRequest,
    ],
  ])('refuses %s', async (_label, override, status, code) => {
    const headers = Object.fromEntries(
      Object.entries({ ...ipcHeaders, ...override }).filter(([, value]) => value !== ''),
    );
    const reply = await raw(host.origin, {
      method: 'POST',
      path: '/ipc/getStatus',
      headers,
      body: '{}',
    });
    expect(reply.status).toBe(status);
    expect(JSON.parse(reply.body)).toMatchObject({ ok: false, error: { code } });
  });

  it('refuses oversized, non-JSON and unknown requests with typed errors', async () => {
    const big = await raw(host.origin, {
      method: 'POST',
      path: '/ipc/searchProducts',
      headers: ipcHeaders,
      body: JSON.stringify({ text: 'x'.repeat(100_000) }),
    });
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body)).toMatchObject({ error: { code: ipcErrorCodes.payloadTooLarge } });

    const notJson = await raw(host.origin, {
      method: 'POST',
      path: '/ipc/getStatus',
      headers: ipcHeaders,
      body: '{"a":',
    });
    expect(JSON.parse(notJson.body)).toMatchObject({
      ok: false,
      error: { code: ipcErrorCodes.invalidRequest },
    });

    const polluted = await raw(host.origin, {
      method: 'POST',
      path: '/ipc/getStatus',
      headers: ipcHeaders,
      body: '{"__proto__":{"polluted":true}}',
    });
    expect(JSON.parse(polluted.body)).toMatchObject({
      ok: false,
      error: { code: ipcErrorCodes.invalidRequest },
    });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();

    for (const path of ['/ipc/toString', '/ipc/__proto__', '/ipc/', '/ipc/getStatus/x']) {
      const unknown = await raw(host.origin, {
        method: 'POST',
        path,
        headers: ipcHeaders,
        body: '{}',
      });
      expect(JSON.parse(unknown.body), path).toMatchObject({
        ok: false,
        error: { code: ipcErrorCodes.unknownChannel },
      });
    }
    const get = await raw(host.origin, { path: '/ipc/getStatus', headers: ipcHeaders });
    expect(get.status).toBe(405);
  });

  it("serves the renderer's loopback client: same surface, typed errors, events", async () => {
    const createLoopbackClient = await loadLoopbackClient();
    const watched = streamWatchingFetch(pageFetch(host.origin));
    const kiosk = createLoopbackClient({ origin: host.origin, token: TOKEN, fetch: watched.fetch });

    const status = await kiosk.getStatus();
    expect(status).toMatchObject({ ok: true, value: { host: 'browser' } });
    const invalid = await kiosk.searchProducts({ text: 7 as unknown as string });
    expect(invalid).toMatchObject({ ok: false, error: { code: ipcErrorCodes.invalidRequest } });

    let off = () => {};
    const accepted = new Promise<OutboxChanged>((resolve) => {
      off = kiosk.onOutboxChanged((event) => {
        if (event.type === 'accepted') resolve(event);
      });
    });
    await watched.streamOpen;
    const debit = await kiosk.debitGiftCard({
      requestId: crypto.randomUUID(),
      giftCardId: 'gift_card_44a4a857-b84c-4793-aded-875bcf6df2a6',
      amount: 1,
      policy: 'prefer_online',
    });
    expect(debit).toMatchObject({ ok: true, value: { debit: { state: 'pending' } } });
    const event = await accepted;
    off();
    expect(event).toMatchObject({
      type: 'accepted',
      debit: { giftCardId: 'gift_card_44a4a857-b84c-4793-aded-875bcf6df2a6', amount: 1 },
    });

    const wrongToken = createLoopbackClient({
      origin: host.origin,
      token: 'nope',
      fetch: pageFetch(host.origin),
    });
    expect(await wrongToken.getStatus()).toMatchObject({
      ok: false,
      error: { code: ipcErrorCodes.unauthorized },
    });
  });
});

describe("the loopback client's reply check", () => {
  /** A server on the loopback that is not a kiosk host: it answers every request with `body`. */
  async function foreignServer(body: string) {
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return {
      origin: `http://127.0.0.1:${port}`,
      close: () => new Promise((resolve) => server.close(resolve)),
    };
  }

  it('turns a body that is not a kiosk result into a transport error, never data', async () => {
    const createLoopbackClient = await loadLoopbackClient();
    for (const body of ['{"status":"up"}', '[1,2]', '{"ok":false,"error":{"message":7}}', 'null']) {
      const server = await foreignServer(body);
      try {
        const kiosk = createLoopbackClient({ origin: server.origin, token: TOKEN });
        const reply = await kiosk.getStatus();
        expect(reply, body).toEqual({
          ok: false,
          error: {
            code: ipcErrorCodes.transport,
            message: "the kiosk host's reply to getStatus is not a kiosk result",
          },
        });
      } finally {
        await server.close();
      }
    }
  });

  it("hands over a result's value as the host sent it (its router checked it)", async () => {
    const createLoopbackClient = await loadLoopbackClient();
    const server = await foreignServer('{"ok":true,"value":{"host":"browser","extra":[1]}}');
    try {
      const kiosk = createLoopbackClient({ origin: server.origin, token: TOKEN });
      expect(await kiosk.getStatus()).toEqual({
        ok: true,
        value: { host: 'browser', extra: [1] },
      });
    } finally {
      await server.close();
    }
  });
});
