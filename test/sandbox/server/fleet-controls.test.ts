import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { RequestRateRecorder } from '../../../sandbox/server/request-rate.ts';
import { type Client, emails, expectError, startClient } from './helpers.ts';

/** The controls a fleet simulation needs: a service-wide limit, a per-second count, an outage. */

let client: Client;
beforeAll(async () => {
  client = await startClient();
});
afterAll(() => client.sandbox.close());
afterEach(async () => {
  await client.control('DELETE', '/outage');
  await client.control('DELETE', '/rate-limit/service');
});

interface Second {
  second: number;
  admitted: number;
  limited: number;
}
const rate = async (query = ''): Promise<Second[]> =>
  ((await client.control('GET', `/request-rate${query}`)).body as { seconds: Second[] }).seconds;
const totals = (seconds: readonly Second[]) =>
  seconds.reduce(
    (sum, entry) => ({
      admitted: sum.admitted + entry.admitted,
      limited: sum.limited + entry.limited,
    }),
    { admitted: 0, limited: 0 },
  );

describe('service-wide rate limit', () => {
  test('one bucket shared by every account: 429 with Retry-After, counted per second', async () => {
    await client.login(emails.all);
    await client.login(emails.readonly);
    const before = totals(await rate());
    expect(
      (
        await client.control('PUT', '/rate-limit/service', {
          capacity: 3,
          refillPerSecond: 0.5,
        })
      ).status,
    ).toBe(200);
    expect((await client.as(emails.all, '/v1/ping')).status).toBe(200);
    expect((await client.as(emails.readonly, '/v1/ping')).status).toBe(200);
    expect((await client.as(emails.all, '/v1/ping')).status).toBe(200);
    // The per-account buckets are far from empty: the service's is what refuses.
    const limited = await client.as(emails.readonly, '/v1/ping');
    expectError(limited, 429, 'RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toBe('2');
    const overview = (await client.control('GET', '/')).body as { serviceRateLimit: unknown };
    expect(overview.serviceRateLimit).toEqual({ capacity: 3, refillPerSecond: 0.5 });

    const after = totals(await rate());
    expect(after.admitted - before.admitted).toBe(3);
    expect(after.limited - before.limited).toBe(1);

    await client.control('POST', '/clock/advance', { ms: 2000 });
    expect((await client.as(emails.readonly, '/v1/ping')).status).toBe(200);
    await client.control('DELETE', '/rate-limit/service');
    for (let i = 0; i < 5; i++) expect((await client.as(emails.all, '/v1/ping')).status).toBe(200);
  });

  test('the per-second count can start at a given second; a bad one is refused', async () => {
    await client.as(emails.all, '/v1/ping');
    const all = await rate();
    const last = all.at(-1)!;
    expect(last.admitted).toBeGreaterThan(0);
    expect(await rate(`?since=${last.second + 1}`)).toEqual([]);
    expect((await rate(`?since=${last.second}`))[0]?.second).toBe(last.second);
    expectError(await client.control('GET', '/request-rate?since=soon'), 400, 'INVALID_REQUEST');
    expectError(await client.control('GET', '/request-rate?other=1'), 400, 'INVALID_REQUEST');
  });

  test('given at start-up as an option', async () => {
    const other = await startClient({ serviceRateLimit: { capacity: 2, refillPerSecond: 1 } });
    try {
      // POST /auth takes a token of the service's bucket too.
      await other.login(emails.all);
      expect((await other.as(emails.all, '/v1/ping')).status).toBe(200);
      expectError(await other.as(emails.all, '/v1/ping'), 429, 'RATE_LIMITED');
      expect(other.sandbox.control?.requestRate().reduce((n, s) => n + s.limited, 0)).toBe(1);
    } finally {
      await other.sandbox.close();
    }
  });
});

describe('outage', () => {
  test('every request loses its connection, the control surface stays up, and it ends', async () => {
    await client.login(emails.all);
    const started = await client.control('POST', '/outage');
    expect(started.body).toMatchObject({ active: true });
    await expect(client.request('/health')).rejects.toThrow();
    await expect(client.as(emails.all, '/v1/ping')).rejects.toThrow();
    expect(((await client.control('GET', '/')).body as { outage: unknown }).outage).toMatchObject({
      active: true,
      dropped: 2,
    });
    const ended = await client.control('DELETE', '/outage');
    expect(ended.body).toEqual({ active: false, dropped: 2 });
    expect((await client.request('/health')).status).toBe(200);
    expect((await client.as(emails.all, '/v1/ping')).status).toBe(200);
  });

  test('in process too', async () => {
    const control = client.sandbox.control!;
    expect(control.beginOutage().active).toBe(true);
    await expect(client.request('/health')).rejects.toThrow();
    expect(control.endOutage().active).toBe(false);
    expect((await client.request('/health')).status).toBe(200);
  });
});

describe('request rate recorder', () => {
  test('counts per second in time order and keeps at most maxSeconds', () => {
    const recorder = new RequestRateRecorder(2);
    recorder.record(5_100, 'admitted');
    recorder.record(5_900, 'limited');
    recorder.record(3_000, 'admitted');
    expect(recorder.list()).toEqual([
      { second: 3, admitted: 1, limited: 0 },
      { second: 5, admitted: 1, limited: 1 },
    ]);
    recorder.record(7_000, 'admitted');
    // Second 5 was recorded first: it is the one dropped.
    expect(recorder.list().map((entry) => entry.second)).toEqual([3, 7]);
  });
});
