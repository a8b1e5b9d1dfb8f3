import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserHost, startBrowserHost } from '../../../electron/host/browser-host.ts';
import { createRedactingLogger } from '../../../electron/logging/redacting-logger.ts';
import { type KioskFixture, startKioskFixture } from '../kiosk/support.ts';
import { type RendererFixture, makeRendererFixture } from './renderer-fixture.ts';

const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuv';

/**
 * What the loopback host does with clients that are not its page: anyone on the machine can send
 * them by the thousand, so they get a closed connection and a few log lines, not one line each.
 */
describe('refusals at the loopback browser host', () => {
  let fixture: KioskFixture;
  let renderer: RendererFixture;
  let host: BrowserHost;
  const records: Record<string, unknown>[] = [];

  beforeAll(async () => {
    fixture = await startKioskFixture({ services: { host: 'browser' } });
    renderer = await makeRendererFixture();
    host = await startBrowserHost({
      services: fixture.services,
      rendererDir: renderer.rendererDir,
      token: TOKEN,
      logger: createRedactingLogger({
        sink: (line) => records.push(JSON.parse(line) as Record<string, unknown>),
        level: 'debug',
      }),
      refusalLog: { perWindow: 2 },
    });
  }, 60_000);

  afterAll(async () => {
    await host?.close();
    await fixture?.close();
    await renderer?.close();
  });

  it('closes the connection of a refused client and logs a count, not a line each', async () => {
    const refused = (token?: string) =>
      fetch(`${host.origin}/ipc/getStatus`, {
        method: 'POST',
        headers: {
          origin: host.origin,
          'content-type': 'application/json',
          ...(token === undefined ? {} : { 'x-kiosk-token': token }),
        },
        body: '{}',
      });
    for (let n = 0; n < 5; n++) {
      const response = await refused(n % 2 === 0 ? undefined : 'wrong');
      expect(response.status).toBe(401);
      expect(response.headers.get('connection')).toBe('close');
      await response.arrayBuffer();
    }
    const foreign = await fetch(`${host.origin}/ipc/getStatus`, {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'x-kiosk-token': TOKEN },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('connection')).toBe('close');

    // The page itself keeps its connection.
    const page = await refused(TOKEN);
    expect(page.status).toBe(200);
    expect(page.headers.get('connection')).toBe('keep-alive');

    const refusals = () => records.filter((r) => r['event'] === 'browser_host.token_refused');
    expect(refusals()).toEqual([
      expect.not.objectContaining({ suppressed: expect.anything() }),
      expect.not.objectContaining({ suppressed: expect.anything() }),
    ]);
    await host.close();
    expect(refusals()).toHaveLength(3);
    expect(refusals()[2]).toMatchObject({ level: 'warn', suppressed: 3 });
    expect(records.filter((r) => r['event'] === 'browser_host.origin_refused')).toHaveLength(1);
    expect(JSON.stringify(records)).not.toContain(TOKEN);
  });
});
