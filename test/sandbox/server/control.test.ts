import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { demoCustomers } from '../../../sandbox/data/demo.ts';
import type { Fault } from '../../../sandbox/index.ts';
import { seededAccounts } from '../../../sandbox/server/accounts.ts';
import { type Client, emails, expectError, startClient } from './helpers.ts';

let client: Client;
beforeAll(async () => {
  client = await startClient();
});
afterAll(() => client.sandbox.close());
afterEach(async () => {
  await client.control('DELETE', '/faults');
  await client.control('PUT', '/rate-limit', { capacity: 2000, refillPerSecond: 1000 });
});

const arm = async (spec: Record<string, unknown>): Promise<Fault> => {
  const reply = await client.control('POST', '/faults', spec);
  expect(reply.status).toBe(201);
  return (reply.body as { fault: Fault }).fault;
};
const ping = () => client.as(emails.all, '/v1/ping');
const shops = () => client.as(emails.all, '/v1/shops');

describe('faults', () => {
  test('a route fault fires for the next N matching requests only, then disappears', async () => {
    const fault = await arm({ kind: 'internal-error', route: 'ping', count: 2 });
    expect(fault).toMatchObject({ id: expect.any(String), remaining: 2, fired: 0 });
    expectError(await ping(), 500, 'INTERNAL_SERVER_ERROR');
    expect((await shops()).status).toBe(200);
    expectError(await ping(), 500, 'INTERNAL_SERVER_ERROR');
    expect((await ping()).status).toBe(200);
    expect(((await client.control('GET', '/faults')).body as { faults: Fault[] }).faults).toEqual(
      [],
    );
  });

  test('a route named by its OpenAPI path; a global fault hits every operation but /health', async () => {
    await arm({ kind: 'unavailable', route: '/v1/shops', count: 1 });
    expect((await ping()).status).toBe(200);
    expectError(await shops(), 503, 'SERVICE_UNAVAILABLE');
    await arm({ kind: 'unavailable', count: 3 });
    expectError(await ping(), 503, 'SERVICE_UNAVAILABLE');
    expectError(await shops(), 503, 'SERVICE_UNAVAILABLE');
    expect((await client.request('/health')).status).toBe(200);
    expectError(
      await client.request('/auth', {
        method: 'POST',
        body: { email: emails.all, password: 'sandbox-all' },
      }),
      503,
      'SERVICE_UNAVAILABLE',
    );
    expect((await ping()).status).toBe(200);
  });

  test('429 with Retry-After', async () => {
    await arm({ kind: 'rate-limit', route: 'ping', count: 1, retryAfterSeconds: 7 });
    const reply = await ping();
    expectError(reply, 429, 'RATE_LIMITED');
    expect(reply.headers.get('retry-after')).toBe('7');
  });

  test('added latency', async () => {
    await arm({ kind: 'latency', route: 'ping', latencyMs: 150, count: 1 });
    const started = performance.now();
    expect((await ping()).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  test('connection reset before processing', async () => {
    await arm({ kind: 'reset', route: 'ping', count: 1 });
    await expect(ping()).rejects.toThrow();
    expect((await ping()).status).toBe(200);
  });

  test('probability 0 never fires, probability 1 always does; faults are listed, removed one by one and cleared', async () => {
    const never = await arm({ kind: 'internal-error', route: 'ping', probability: 0 });
    for (let i = 0; i < 5; i++) expect((await ping()).status).toBe(200);
    const always = await arm({ kind: 'internal-error', route: 'listShops', probability: 1 });
    for (let i = 0; i < 3; i++) expectError(await shops(), 500, 'INTERNAL_SERVER_ERROR');
    const listed = ((await client.control('GET', '/faults')).body as { faults: Fault[] }).faults;
    expect(listed.map((fault) => fault.id)).toEqual([never.id, always.id]);
    expect(listed[1]).toMatchObject({ fired: 3, remaining: null });
    expect((await client.control('DELETE', `/faults/${always.id}`)).status).toBe(200);
    expect((await shops()).status).toBe(200);
    expectError(await client.control('DELETE', `/faults/${always.id}`), 404, 'RESOURCE_NOT_FOUND');
    expect((await client.control('DELETE', '/faults')).body).toEqual({ cleared: 1 });
  });

  test('a probability between 0 and 1 fires some of the time', async () => {
    await arm({ kind: 'internal-error', route: 'ping', probability: 0.5 });
    const statuses = [];
    for (let i = 0; i < 40; i++) statuses.push((await ping()).status);
    expect(statuses).toContain(200);
    expect(statuses).toContain(500);
  });

  test('bad fault specs are 400', async () => {
    for (const spec of [
      { kind: 'explode' },
      { kind: 'latency' },
      { kind: 'internal-error', route: '/v1/nowhere' },
      { kind: 'internal-error', count: 0 },
      { kind: 'internal-error', probability: 2 },
      { kind: 'internal-error', extra: true },
    ]) {
      expectError(await client.control('POST', '/faults', spec), 400, 'INVALID_REQUEST');
    }
  });
});

describe('rate limiting', () => {
  test('a lowered bucket answers 429 with Retry-After, and refills with time', async () => {
    expect(
      (await client.control('PUT', '/rate-limit', { capacity: 3, refillPerSecond: 0.5 })).status,
    ).toBe(200);
    for (let i = 0; i < 3; i++) expect((await ping()).status).toBe(200);
    const limited = await ping();
    expectError(limited, 429, 'RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toBe('2');
    // Buckets are per account.
    expect((await client.as(emails.readonly, '/v1/ping')).status).toBe(200);
    await client.control('POST', '/clock/advance', { ms: 2000 });
    expect((await ping()).status).toBe(200);
  });
});

describe('clock, activity, reset, overview', () => {
  test('the clock only moves forward', async () => {
    const before = Date.parse(
      ((await client.control('GET', '/clock')).body as { now: string }).now,
    );
    const after = Date.parse(
      ((await client.control('POST', '/clock/advance', { ms: 3_600_000 })).body as { now: string })
        .now,
    );
    expect(after - before).toBeGreaterThanOrEqual(3_600_000);
    expectError(await client.control('POST', '/clock/advance', { ms: -1 }), 400, 'INVALID_REQUEST');
    expectError(await client.control('POST', '/clock/advance'), 400, 'INVALID_REQUEST');
  });

  test('store activity advances on demand and lands in the change feed', async () => {
    const reply = await client.control('POST', '/activity/advance', { steps: 5 });
    const { changes } = reply.body as { changes: { updatedAt: string }[] };
    expect(changes).toHaveLength(5);
    await client.control('POST', '/clock/advance', { ms: 100 });
    const feed = await client.as(
      emails.catalog,
      `/v1/catalog/changes?since=${changes[0]!.updatedAt}`,
    );
    expect((feed.body as { changes: unknown[] }).changes).toEqual(changes);
  });

  test('reset goes back to the seed: data, scopes, revocations', async () => {
    const path = `/v1/customers/${demoCustomers.main}`;
    const original = (await client.as(emails.all, path)).body;
    await client.as(emails.all, path, {
      method: 'PUT',
      body: { typeCustomer: 'individual', firstName: 'X', lastName: 'Y' },
    });
    await client.control('PUT', `/accounts/${encodeURIComponent(emails.catalog)}/scopes`, {
      scopes: [],
    });
    expect((await client.control('POST', '/reset')).status).toBe(200);
    const after = (await client.as(emails.all, path)).body as Record<string, unknown>;
    expect({ ...after, updatedAt: null, createdAt: null }).toEqual({
      ...(original as object),
      updatedAt: null,
      createdAt: null,
    });
    expect((await client.as(emails.catalog, '/v1/shops')).status).toBe(200);
  });

  test('the overview shows clock, accounts, faults and settings; unknown control routes are 404', async () => {
    await arm({ kind: 'latency', latencyMs: 1 });
    const overview = (await client.control('GET', '/')).body as Record<string, unknown>;
    expect(overview).toMatchObject({
      seed: 1,
      tokenTtlSeconds: 900,
      idempotencyRetentionMs: 86_400_000,
    });
    expect((overview.accounts as unknown[]).length).toBe(seededAccounts.length);
    expect((overview.faults as unknown[]).length).toBe(1);
    expect(JSON.stringify(overview)).not.toContain('sandbox-all');
    expectError(await client.control('GET', '/nothing'), 404, 'RESOURCE_NOT_FOUND');
    expectError(await client.request('/__sandbox/?x=1'), 400, 'INVALID_REQUEST');
  });
});
