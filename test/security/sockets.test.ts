import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type Server, type Socket, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  BROWSER_HOST_MAX_CONNECTIONS,
  type BrowserHost,
  startBrowserHost,
} from '../../electron/host/browser-host.ts';
import { createRedactingLogger } from '../../electron/logging/index.ts';
import { PROMETHEUS_MAX_CONNECTIONS } from '../../electron/metrics/prometheus-endpoint.ts';
import { demoGiftCards } from '../../sandbox/data/demo.ts';
import { defaultProfile } from '../../shared/profile/index.ts';
import { type BrowserMainRun, startBrowserMain } from '../electron/host/browser-main-process.ts';
import { loadLoopbackClient, pageFetch } from '../electron/host/loopback-client.ts';
import {
  ADMIN_PIN,
  type KioskFixture,
  replyTo,
  startKioskFixture,
} from '../electron/kiosk/support.ts';
import { freePort } from '../support/free-port.ts';

/**
 * The two ports anyone on the machine can reach: the Prometheus endpoint and the browser host.
 * Before: each scrape queried CUPS and, with CUPS down, wrote a warning (8 local scrapers for
 * 10 s: 686 lines); 1,100 idle sockets on the metrics port, or 600 on the browser host's at
 * `ulimit -n 300`, exhausted the descriptors and a debit got no reply until they closed;
 * `kiosk_build_info{profile}` kept the profile of the start after a switch in setup.
 *
 * Nothing is timed: the floods are bounded, and what is checked is how many connections stay
 * open and that the debit answers at all (a wait that never ends fails the test).
 */

const alternateProfile = new URL('../../sandbox/dialects/alternate.profile.json', import.meta.url)
  .pathname;

/** `count` connections left idle: never a byte sent. */
async function idleSockets(port: number, count: number): Promise<Socket[]> {
  const sockets: Socket[] = [];
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve) => {
          const socket = connect(port, '127.0.0.1');
          sockets.push(socket);
          socket.on('error', () => resolve());
          socket.on('close', () => resolve());
          socket.on('connect', () => resolve());
        }),
    ),
  );
  return sockets;
}

/**
 * Connections the server on `port` has accepted and holds (a descriptor each): this machine's
 * /proc/net/tcp, local port `port`, established, with an inode (one still in the kernel's accept
 * queue has none, and holds no descriptor of the process).
 */
function heldBy(port: number): number {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter(
      ([, local, , state, , , , , , inode]) =>
        local?.endsWith(`:${hex}`) && state === '01' && inode !== '0',
    ).length;
}

/** A scheduler that is down but answers the port: it counts each tool that tries it. */
async function cupsDown(): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, port, connections: () => connections };
}

describe('the metrics endpoint', { timeout: 120_000 }, () => {
  let fixture: KioskFixture;
  let cups: Awaited<ReturnType<typeof cupsDown>>;
  let url: string;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    cups = await cupsDown();
    fixture = await startKioskFixture({
      logger: createRedactingLogger({
        sink: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
        level: 'debug',
      }),
      services: {
        environment: { KIOSK_METRICS_PORT: String(await freePort()) },
        printing: { backend: 'cups', cupsServer: `127.0.0.1:${cups.port}` },
      },
    });
    url = fixture.services.parts.telemetry.prometheusUrl!;
  }, 60_000);
  afterAll(async () => {
    await fixture?.close();
    cups?.server.close();
  });

  it('scrapers in a loop with CUPS down: one query to the print system, one log line', async () => {
    const scrape = async () => {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      return response.text();
    };
    const first = await scrape();
    expect(first).toMatch(/^kiosk_printers\{state="unreachable".*\} 1$/m);
    // The tools of that one query (lpstat -p, -a, -d, -r) may still be trying the port when the
    // scrape has its answer: counted once they are all done.
    let queried = -1;
    await vi.waitFor(
      () => {
        const now = cups.connections();
        const settled = now === queried;
        queried = now;
        expect(settled).toBe(true);
      },
      { timeout: 30_000, interval: 500 },
    );
    expect(queried).toBeGreaterThan(0);
    // Eight scrapers, five rounds each, all at once.
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let round = 0; round < 5; round++) await scrape();
      }),
    );
    expect(cups.connections()).toBe(queried);
    const warnings = lines.filter((line) => line['event'] === 'kiosk.metrics.printers_unreadable');
    expect(warnings).toHaveLength(1);
  });

  it('kiosk_build_info follows the profile an administrator switches to', async () => {
    // The series at 1 is the profile in force (one switched away from stays, at 0).
    const info = async () =>
      /^kiosk_build_info\{.*profile="([^"]*)".*\} 1$/m.exec(await (await fetch(url)).text())?.[1];
    expect(await info()).toBe(defaultProfile.name);
    await replyTo(fixture, 'updateSettings', {
      adminPin: ADMIN_PIN,
      changes: { profilePath: alternateProfile },
    });
    expect(await info()).toBe('commerce-kiosk sandbox (alternate dialect)');
    expect(await (await fetch(url)).text()).toMatch(
      /^kiosk_build_info\{.*profile="commerce-kiosk sandbox \(default dialect\)".*\} 0$/m,
    );
  });

  it('1,100 idle sockets: at most the cap stay open, and a debit over IPC answers', async () => {
    const port = Number(new URL(url).port);
    const sockets = await idleSockets(port, 1_100);
    try {
      // Whatever the kernel had queued is accepted, then closed past the cap.
      await vi.waitFor(() => expect(heldBy(port)).toBeGreaterThan(0), { timeout: 20_000 });
      expect(heldBy(port)).toBeLessThanOrEqual(PROMETHEUS_MAX_CONNECTIONS);
      const debit = await replyTo(fixture, 'debitGiftCard', {
        requestId: randomUUID(),
        giftCardId: demoGiftCards.active,
        amount: 1,
        policy: 'prefer_online',
      });
      expect(debit.debit.state).toBe('pending');
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });
});

describe('the browser host', { timeout: 120_000 }, () => {
  let fixture: KioskFixture;
  let host: BrowserHost;
  let rendererDir: string;
  const TOKEN = 'security-sockets-token-0123456789abcdefghij';

  beforeAll(async () => {
    fixture = await startKioskFixture({ services: { host: 'browser' } });
    rendererDir = mkdtempSync(join(tmpdir(), 'kiosk-security-sockets-'));
    host = await startBrowserHost({ services: fixture.services, rendererDir, token: TOKEN });
  }, 60_000);
  afterAll(async () => {
    await host?.close();
    await fixture?.close();
    rmSync(rendererDir, { recursive: true, force: true });
  });

  it('2,000 idle sockets: at most the cap stay open, and the page still gets in', async () => {
    const createLoopbackClient = await loadLoopbackClient();
    const kiosk = createLoopbackClient({
      origin: host.origin,
      token: TOKEN,
      fetch: pageFetch(host.origin),
    });
    const port = Number(new URL(host.origin).port);
    const sockets = await idleSockets(port, 2_000);
    try {
      // The page's own request, on a connection opened after the flood: room is made for it.
      const debit = await kiosk.debitGiftCard({
        requestId: randomUUID(),
        giftCardId: demoGiftCards.active,
        amount: 1,
        policy: 'prefer_online',
      });
      expect(debit).toMatchObject({ ok: true, value: { debit: { state: 'pending' } } });
      expect(heldBy(port)).toBeLessThanOrEqual(BROWSER_HOST_MAX_CONNECTIONS);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });
});

describe('npm start (browser host) at ulimit -n 300', { timeout: 120_000 }, () => {
  let dataDir: string;
  let running: BrowserMainRun | undefined;
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('600 idle sockets on its port: a debit still answers', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'kiosk-security-ulimit-'));
    running = await startBrowserMain({ KIOSK_DATA_DIR: dataDir }, { shell: 'ulimit -n 300' });
    const sockets = await idleSockets(Number(new URL(running.origin).port), 600);
    try {
      const debit = await running.kiosk.debitGiftCard({
        requestId: randomUUID(),
        giftCardId: demoGiftCards.active,
        amount: 1,
        policy: 'prefer_online',
      });
      expect(debit).toMatchObject({ ok: true });
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });
});
