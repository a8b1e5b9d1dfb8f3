import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { type CatalogChange, CatalogChangesReply } from '../../../shared/api/catalog.ts';
import { startSandbox } from '../../../sandbox/index.ts';
import { Client, emails, expectError, startClient } from './helpers.ts';

let client: Client;
beforeAll(async () => {
  client = await startClient();
});
afterAll(() => client.sandbox.close());

const feed = async (query: Record<string, string | number>) => {
  const search = new URLSearchParams(
    Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]),
  );
  const reply = await client.as(emails.catalog, `/v1/catalog/changes?${search}`);
  expect(reply.status).toBe(200);
  return CatalogChangesReply.parse(reply.body);
};
const advance = async (steps: number) => {
  const reply = await client.control('POST', '/activity/advance', { steps });
  expect(reply.status).toBe(200);
  return (reply.body as { changes: CatalogChange[] }).changes;
};
const sandboxNow = async () =>
  Date.parse(((await client.control('GET', '/clock')).body as { now: string }).now);
const keyOf = (change: CatalogChange) =>
  `${change.type}|${change.id}|${change.action}|${change.updatedAt}`;
const epoch = '2000-01-01T00:00:00.000Z';

/** Pages through one window, keeping the `until` of the first page, as the spec's rule 1 says. */
async function window(since: string, limit: number, between?: () => Promise<unknown>) {
  const first = await feed({ since, limit });
  const changes = [...first.changes];
  let page = first;
  while (page.pagination.hasNextPage) {
    if (between) await between();
    page = await feed({ since, until: first.until, limit, page: page.pagination.page + 1 });
    expect(page.until).toBe(first.until);
    expect(page.pagination.total).toBe(first.pagination.total);
    changes.push(...page.changes);
  }
  return { until: first.until, total: first.pagination.total, changes };
}

describe('GET /v1/catalog/changes', () => {
  test('without `until` the window ends now on the sandbox clock; changes are ordered', async () => {
    const before = await sandboxNow();
    const reply = await feed({ since: epoch, limit: 500 });
    const until = Date.parse(reply.until);
    expect(until).toBeGreaterThanOrEqual(before);
    expect(until).toBeLessThanOrEqual(await sandboxNow());
    expect(reply.since).toBe(epoch);
    expect(reply.changes.length).toBeGreaterThan(0);
    const times = reply.changes.map((change) => Date.parse(change.updatedAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.every((time) => time < until)).toBe(true);
    expect(Object.keys(reply.pagination).sort()).toEqual(['hasNextPage', 'limit', 'page', 'total']);
  });

  test('`since` is inclusive and a change at exactly `until` belongs to the next window', async () => {
    const { changes } = await feed({ since: epoch, limit: 500 });
    const pivot = changes[Math.floor(changes.length / 2)]!;
    const before = await feed({ since: epoch, until: pivot.updatedAt, limit: 500 });
    expect(before.until).toBe(pivot.updatedAt);
    expect(before.changes.map(keyOf)).not.toContain(keyOf(pivot));
    const after = await feed({ since: before.until, until: changes.at(-1)!.updatedAt, limit: 500 });
    expect(after.changes[0]).toEqual(
      changes.find((change) => change.updatedAt === pivot.updatedAt),
    );
    expect(after.changes.map(keyOf)).toContain(keyOf(pivot));
  });

  test('pages of one window are stable while activity goes on', async () => {
    const since = new Date((await sandboxNow()) - 60 * 60 * 1000).toISOString();
    await advance(30);
    await client.control('POST', '/clock/advance', { ms: 10 });
    const { until, total, changes } = await window(since, 7, () => advance(5));
    expect(changes).toHaveLength(total);
    expect(new Set(changes.map(keyOf)).size).toBe(total);
    expect(changes.every((change) => change.updatedAt < until)).toBe(true);
    // The same window asked again, after more activity, is the same list.
    const again = await feed({ since, until, limit: 500 });
    expect(again.changes).toEqual(changes);
  });

  test('storing the returned `until` as the next `since` sees every change exactly once', async () => {
    const start = await feed({ since: epoch, limit: 1 });
    let since = start.until;
    const seen: string[] = [];
    for (let round = 0; round < 6; round++) {
      await advance(round * 4 + 3);
      if (round % 2 === 0) await client.control('POST', '/clock/advance', { ms: 25 });
      const result = await window(since, 4);
      seen.push(...result.changes.map(keyOf));
      since = result.until;
    }
    await client.control('POST', '/clock/advance', { ms: 1000 });
    const last = await window(since, 50);
    seen.push(...last.changes.map(keyOf));
    const everything = await feed({ since: start.until, limit: 500 });
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(everything.changes.map(keyOf));
    expect(seen.length).toBeGreaterThanOrEqual(3 + 7 + 11 + 15 + 19 + 23);
  });

  test('a future `until` is brought back to now; a future `since` gives an empty window that resumes there', async () => {
    const now = await sandboxNow();
    const capped = await feed({ since: epoch, until: '2999-01-01T00:00:00Z' });
    expect(Date.parse(capped.until)).toBeGreaterThanOrEqual(now);
    expect(Date.parse(capped.until)).toBeLessThan(Date.parse('2999-01-01T00:00:00Z'));
    const ahead = new Date(now + 3_600_000).toISOString();
    const empty = await feed({ since: ahead });
    expect(empty).toEqual({
      since: ahead,
      until: ahead,
      changes: [],
      pagination: { page: 1, limit: 100, total: 0, hasNextPage: false },
    });
    expectError(
      await client.as(emails.catalog, `/v1/catalog/changes?since=${ahead}&until=${epoch}`),
      400,
      'INVALID_REQUEST',
    );
  });

  test('`types` filters by record type; a shop keeps its own changes and the shared ones', async () => {
    await advance(40);
    const all = await feed({ since: epoch, limit: 500 });
    const items = await feed({
      since: epoch,
      until: all.until,
      types: 'product-items',
      limit: 500,
    });
    expect(items.changes.every((change) => change.type === 'product-item')).toBe(true);
    expect(items.changes).toEqual(all.changes.filter((change) => change.type === 'product-item'));
    const two = await feed({
      since: epoch,
      until: all.until,
      types: 'products,categories',
      limit: 500,
    });
    expect(two.changes).toEqual(
      all.changes.filter((change) => change.type === 'product' || change.type === 'category'),
    );
    const shops = (await client.as(emails.catalog, '/v1/shops')).body as { data: { id: string }[] };
    const shopId = shops.data[0]!.id;
    const inShop = await feed({ since: epoch, until: all.until, shopId, limit: 500 });
    expect(inShop.changes.length).toBeLessThanOrEqual(all.changes.length);
    expect(
      inShop.changes
        .filter((change) => change.type === 'shop')
        .every((change) => change.id === shopId),
    ).toBe(true);
  });

  test('the change feed needs the three catalogue scopes', async () => {
    const body = expectError(
      await client.as(emails.ping, `/v1/catalog/changes?since=${epoch}`),
      403,
      'FORBIDDEN',
    );
    expect(body.missingScopes).toEqual(['products:read', 'referentials:read', 'stock:read']);
  });

  test('store activity can run on a timer', async () => {
    const timed = new Client(await startSandbox({ control: true, activityIntervalMs: 10 }));
    try {
      const since = new Date(
        Date.parse(((await timed.control('GET', '/clock')).body as { now: string }).now),
      ).toISOString();
      // The timer steps every 10 ms: the feed grows on its own, no request moves it.
      await vi.waitFor(
        async () => {
          const reply = await timed.as(emails.catalog, `/v1/catalog/changes?since=${since}`);
          expect((reply.body as { changes: unknown[] }).changes.length).toBeGreaterThan(2);
        },
        { timeout: 5_000, interval: 20 },
      );
    } finally {
      await timed.sandbox.close();
    }
  });
});
