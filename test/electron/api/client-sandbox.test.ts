import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { operations } from '../../../shared/api/operations.ts';
import { demoCustomers, demoGiftCards, demoProducts } from '../../../sandbox/data/demo.ts';
import { CommerceApiClient } from '../../../electron/api/client.ts';
import {
  Conflict,
  CredentialsRejected,
  Forbidden,
  InternalError,
  InvalidRequest,
  NetworkError,
  NotFound,
  RateLimited,
  ServiceUnavailable,
  Timeout,
} from '../../../electron/api/errors.ts';
import type { PdfDocument } from '../../../electron/api/pdf.ts';
import { type Harness, instrumentedClient, operationOfRequest } from './support/client-harness.ts';
import { callEveryOperation } from './support/every-operation.ts';
import { type TestSandbox, startTestSandbox } from './support/sandbox.ts';

/** The client against the project's sandbox: real HTTP, real JWTs, real fault injection. */

let sandbox: TestSandbox;
const harnesses: Harness[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({ products: 120 });
}, 30_000);

afterAll(async () => {
  await sandbox?.close();
});

beforeEach(async () => {
  await sandbox.control.reset();
  await sandbox.control.clearFaults();
});

afterEach(() => {
  for (const harness of harnesses.splice(0)) harness.client.close();
});

function harness(
  options: Parameters<typeof instrumentedClient>[2] = {},
  account = sandbox.full,
): Harness {
  const created = instrumentedClient(sandbox.baseUrl, account, options);
  harnesses.push(created);
  return created;
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('the contract surface', () => {
  test('each of the 30 methods reaches its own route, and the set of routes reached is exactly the contract', async () => {
    const { client, exchanges } = harness();
    const results = await callEveryOperation(client);

    const reached = new Set<string>();
    for (const exchange of exchanges) {
      const operation = operationOfRequest(exchange.method, exchange.path);
      expect(operation, `${exchange.method} ${exchange.path}`).toBeDefined();
      expect(operation?.operationId).toBe(exchange.operationId);
      reached.add(`${operation!.method} ${operation!.path}`);
      expect(exchange.status).toBe(200);
    }
    expect(reached).toEqual(
      new Set(
        Object.values(operations).map((operation) => `${operation.method} ${operation.path}`),
      ),
    );
    expect(reached.size).toBe(30);

    // Parsed values come back, typed by the table.
    expect(results.ping).toEqual({ version: expect.any(String) });
    expect(
      Buffer.from((results.downloadSaleInvoice as PdfDocument).bytes.subarray(0, 5)).toString(),
    ).toBe('%PDF-');
    expect(
      Buffer.from((results.downloadSavSlip as PdfDocument).bytes.subarray(0, 5)).toString(),
    ).toBe('%PDF-');
  });

  test('the public methods are the 30 operations plus health and the page walkers; none takes a path', () => {
    const methods = Object.getOwnPropertyNames(CommerceApiClient.prototype).filter(
      (name) => name !== 'constructor',
    );
    expect(new Set(methods)).toEqual(
      new Set([...Object.keys(operations), 'health', 'pages', 'items', 'changes', 'close']),
    );
  });

  test('health is answered outside the contract, without a token', async () => {
    const { client, exchanges } = harness();
    expect(await client.health()).toEqual({ status: 'ok' });
    expect(exchanges).toHaveLength(0);
  });
});

describe('each error class from a real sandbox reply', () => {
  test('InvalidRequest: a 400 the local schemas cannot foresee', async () => {
    const { client } = harness();
    const error = await failure(
      client.listCatalogChanges({
        query: { since: '2025-06-02T00:00:00Z', until: '2025-06-01T00:00:00Z' },
      }),
    );
    expect(error).toBeInstanceOf(InvalidRequest);
    expect(error).toMatchObject({
      code: 'INVALID_REQUEST',
      status: 400,
      local: false,
      operationId: 'listCatalogChanges',
    });
  });

  test('Unauthorized: an expired token is renewed once and the call succeeds', async () => {
    const { client, exchanges } = harness();
    await client.ping();
    await sandbox.control.advanceClock(16 * 60 * 1000);
    expect(await client.ping()).toEqual({ version: expect.any(String) });
    expect(
      exchanges.map((event) => [event.operationId, event.status, event.errorKind ?? null]),
    ).toEqual([
      ['authenticate', 200, null],
      ['ping', 200, null],
      ['ping', 401, 'Unauthorized'],
      ['authenticate', 200, null],
      ['ping', 200, null],
    ]);
  });

  test('CredentialsRejected: POST /auth refused, and a fresh token refused', async () => {
    const revoked = sandbox.account((scopes) => scopes.length === 0);
    const existing = harness({}, revoked);
    await existing.client.ping();
    await sandbox.control.revokeAccount(revoked.email);

    const fresh = harness({}, revoked);
    const refusedLogin = await failure(fresh.client.ping());
    expect(refusedLogin).toBeInstanceOf(CredentialsRejected);
    expect(refusedLogin).toMatchObject({ status: 401, operationId: 'authenticate' });
    expect((refusedLogin as Error).message).toMatch(/administrator must fix/);

    const refusedToken = await failure(existing.client.ping());
    expect(refusedToken).toBeInstanceOf(CredentialsRejected);
    expect(existing.count('authenticate')).toBe(2);
  });

  test('Forbidden carries the missing scopes', async () => {
    const catalogOnly = sandbox.account(
      (scopes) => scopes.includes('products:read') && !scopes.includes('sales:read'),
    );
    const { client } = harness({}, catalogOnly);
    const error = await failure(client.listSales());
    expect(error).toBeInstanceOf(Forbidden);
    expect((error as Forbidden).missingScopes).toContain('sales:read');
    expect((error as Forbidden).code).toBe('FORBIDDEN');
  });

  test('NotFound and Conflict', async () => {
    const { client } = harness();
    expect(
      await failure(client.getProduct({ params: { productId: 'prod_does_not_exist' } })),
    ).toBeInstanceOf(NotFound);

    const key = randomUUID();
    await client.debitGiftCard({
      params: { giftCardId: demoGiftCards.active },
      headers: { 'Idempotency-Key': key },
      body: { amount: 2, currency: 'EUR' },
    });
    const reused = await failure(
      client.debitGiftCard({
        params: { giftCardId: demoGiftCards.active },
        headers: { 'Idempotency-Key': key },
        body: { amount: 3, currency: 'EUR' },
      }),
    );
    expect(reused).toBeInstanceOf(Conflict);
    expect((reused as Conflict).status).toBe(409);
  });

  test('RateLimited: a Retry-After beyond the cap is surfaced at once with retryAfterMs', async () => {
    const { client, count } = harness();
    await sandbox.control.addFault({ kind: 'rate-limit', route: 'ping', retryAfterSeconds: 30 });
    const error = await failure(client.ping());
    expect(error).toBeInstanceOf(RateLimited);
    expect((error as RateLimited).retryAfterMs).toBe(30_000);
    expect(count('ping')).toBe(1);
  });

  test('InternalError and ServiceUnavailable after the read rule gives up (4 attempts, full-jitter delays)', async () => {
    const { client, clock, count } = harness();
    await sandbox.control.addFault({ kind: 'internal-error', route: 'ping', count: 4 });
    expect(await failure(client.ping())).toBeInstanceOf(InternalError);
    expect(count('ping')).toBe(4);
    expect(clock.sleeps).toEqual([125, 250, 500]);

    await sandbox.control.addFault({ kind: 'unavailable', route: 'listShops', count: 4 });
    const unavailable = await failure(client.listShops());
    expect(unavailable).toBeInstanceOf(ServiceUnavailable);
    expect(unavailable).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(count('listShops')).toBe(4);
  });

  test('NetworkError: reset mid-exchange (outcome unknown) and refused connection (nothing sent)', async () => {
    const { client, count } = harness();
    await sandbox.control.addFault({ kind: 'reset', route: 'ping', count: 4 });
    const reset = await failure(client.ping());
    expect(reset).toBeInstanceOf(NetworkError);
    expect((reset as NetworkError).requestSent).toBe(true);
    expect(count('ping')).toBe(4);

    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const offline = instrumentedClient(`http://127.0.0.1:${closedPort}`, sandbox.full, {
      retry: { rules: { read: { maxAttempts: 1 } } },
    });
    harnesses.push(offline);
    const refused = await failure(offline.client.ping());
    expect(refused).toBeInstanceOf(NetworkError);
    expect(refused).toMatchObject({
      requestSent: false,
      systemCode: 'ECONNREFUSED',
      code: 'NETWORK_ERROR',
    });
  });

  test('Timeout: a reply slower than the response timeout', async () => {
    const { client } = harness({
      timeouts: { responseMs: 150 },
      retry: { rules: { read: { maxAttempts: 1 } } },
    });
    await client.ping();
    await sandbox.control.addFault({ kind: 'latency', route: 'ping', latencyMs: 600, count: 1 });
    const error = await failure(client.ping());
    expect(error).toBeInstanceOf(Timeout);
    expect(error).toMatchObject({ phase: 'response', timeoutMs: 150 });
  });
});

describe('retries against injected faults', () => {
  test('503 twice, then success: three exchanges, delays 125 and 250 ms', async () => {
    const { client, clock, count } = harness();
    await sandbox.control.addFault({ kind: 'unavailable', route: 'listCategories', count: 2 });
    const categories = await client.listCategories();
    expect(categories.data.length).toBeGreaterThan(0);
    expect(count('listCategories')).toBe(3);
    expect(clock.sleeps).toEqual([125, 250]);
  });

  test('429 with Retry-After is honoured before the retry', async () => {
    const { client, clock, count } = harness();
    await sandbox.control.addFault({
      kind: 'rate-limit',
      route: 'ping',
      retryAfterSeconds: 2,
      count: 1,
    });
    await client.ping();
    expect(count('ping')).toBe(2);
    // 2 s from the header plus half of the 250 ms jitter.
    expect(clock.sleeps).toEqual([2_125]);
  });

  test('the retry budget runs out across calls', async () => {
    const { client, count, logLines } = harness({
      retry: { rules: { read: { maxAttempts: 10 } }, budget: { capacity: 3, refillPerSecond: 0 } },
    });
    await sandbox.control.addFault({ kind: 'unavailable', route: 'ping' });
    expect(await failure(client.ping())).toBeInstanceOf(ServiceUnavailable);
    expect(count('ping')).toBe(4);
    expect(await failure(client.ping())).toBeInstanceOf(ServiceUnavailable);
    expect(count('ping')).toBe(5);
    expect(logLines.filter((line) => line.includes('api.retry.budget_exhausted'))).toHaveLength(2);
  });

  test('gift-card debit: commit-then-reset is resent with the same key, and the ledger holds one debit', async () => {
    const { client, count } = harness();
    const before = await client.getGiftCard({ params: { giftCardId: demoGiftCards.active } });
    await sandbox.control.addFault({ kind: 'commit-then-reset', route: 'debitGiftCard', count: 1 });
    const key = randomUUID();
    const receipt = await client.debitGiftCard({
      params: { giftCardId: demoGiftCards.active },
      headers: { 'Idempotency-Key': key },
      body: { amount: 10, currency: 'EUR', reference: 'till-1-0001' },
    });
    expect(count('debitGiftCard')).toBe(2);
    expect(receipt['balance']).toBeCloseTo(Number(before['balance']) - 10, 2);
    const ledger = await sandbox.control.ledger(demoGiftCards.active);
    expect(ledger.filter((entry) => entry.idempotencyKey === key)).toHaveLength(1);
    const after = await client.getGiftCard({ params: { giftCardId: demoGiftCards.active } });
    expect(after['balance']).toBeCloseTo(Number(before['balance']) - 10, 2);
  });

  test('gift-card debit: resets before processing are retried until it lands once', async () => {
    const { client, count } = harness();
    await sandbox.control.addFault({ kind: 'reset', route: 'debitGiftCard', count: 2 });
    const key = randomUUID();
    await client.debitGiftCard({
      params: { giftCardId: demoGiftCards.active },
      headers: { 'Idempotency-Key': key },
      body: { amount: 1.25, currency: 'EUR' },
    });
    expect(count('debitGiftCard')).toBe(3);
    expect(
      (await sandbox.control.ledger(demoGiftCards.active)).filter(
        (entry) => entry.idempotencyKey === key,
      ),
    ).toHaveLength(1);
  });

  test('customer replacement: a reset (outcome unknown) is not resent', async () => {
    const { client, count } = harness();
    await sandbox.control.addFault({ kind: 'reset', route: 'replaceCustomer', count: 1 });
    const error = await failure(
      client.replaceCustomer({
        params: { customerId: demoCustomers.company },
        body: { typeCustomer: 'company', firstName: 'Acme', lastName: 'SARL' },
      }),
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect(count('replaceCustomer')).toBe(1);
  });
});

describe('token renewal', () => {
  test('20 concurrent first calls make one POST /auth', async () => {
    const { client, count } = harness();
    await Promise.all(Array.from({ length: 20 }, () => client.ping()));
    expect(count('authenticate')).toBe(1);
    expect(count('ping')).toBe(20);
  });

  test('20 concurrent calls meeting a 401 share one renewal', async () => {
    const { client, count, exchanges } = harness();
    await client.ping();
    await sandbox.control.advanceClock(16 * 60 * 1000);
    await Promise.all(Array.from({ length: 20 }, () => client.listShops()));
    expect(count('authenticate')).toBe(2);
    const shops = exchanges.filter((event) => event.operationId === 'listShops');
    expect(shops.filter((event) => event.status === 401).length).toBeGreaterThan(0);
    expect(shops.filter((event) => event.status === 200)).toHaveLength(20);
  });

  test('the token is renewed before exp, without meeting a 401', async () => {
    const { client, clock, exchanges } = harness();
    await client.ping();
    // The sandbox issues 15-minute tokens; 30 s before exp is inside the renewal margin.
    clock.advance(15 * 60 * 1000 - 30_000);
    await client.ping();
    expect(exchanges.map((event) => [event.operationId, event.status])).toEqual([
      ['authenticate', 200],
      ['ping', 200],
      ['authenticate', 200],
      ['ping', 200],
    ]);
  });
});

describe('pagination', () => {
  test('items() walks every catalogue page until hasNextPage is false', async () => {
    const { client, count } = harness();
    const first = await client.listCatalogProducts({ query: { limit: 25 } });
    const uuids: string[] = [];
    for await (const product of client.items('listCatalogProducts', { query: { limit: 25 } }))
      uuids.push(product.uuid);
    expect(uuids).toHaveLength(first.pagination.total);
    expect(new Set(uuids).size).toBe(uuids.length);
    expect(count('listCatalogProducts')).toBe(1 + first.pagination.totalPages);

    const pages: number[] = [];
    for await (const page of client.pages('listProducts', { query: { limit: 50, page: 2 } }))
      pages.push(page.pagination.page);
    expect(pages[0]).toBe(2);
  });

  test('the change feed keeps the same until on every page and returns it as the next since', async () => {
    const { client } = harness();
    const since = await sandbox.control.now();
    await sandbox.control.advanceActivity(40);
    const window = client.changes({ since, limit: 5 });
    const untils: string[] = [];
    let changes = 0;
    let total = 0;
    for await (const page of window) {
      untils.push(page.until);
      changes += page.changes.length;
      total = page.pagination.total;
      // Time moves on between pages; the window must not.
      await sandbox.control.advanceClock(60_000);
    }
    expect(untils.length).toBeGreaterThan(1);
    expect(new Set(untils).size).toBe(1);
    expect(changes).toBe(total);
    expect(window.nextSince).toBe(untils[0]);
  });
});

describe('connectivity', () => {
  test('unreachable exchanges move to offline; a health check brings it back online', async () => {
    const { client } = harness({ retry: { rules: { read: { maxAttempts: 1 } } } });
    await client.ping();
    const states: string[] = [];
    client.connectivity.on('change', (change) => states.push(change.to));
    await sandbox.control.addFault({ kind: 'reset', route: 'ping', count: 2 });
    await failure(client.ping());
    await failure(client.ping());
    expect(client.connectivity.state).toBe('offline');
    await sandbox.control.addFault({ kind: 'unavailable', route: 'ping', count: 1 });
    await failure(client.ping());
    expect(client.connectivity.state).toBe('degraded');
    expect(await client.connectivity.check()).toBe('online');
    expect(states).toEqual(['degraded', 'offline', 'degraded', 'online']);
  });
});

describe('logging', () => {
  test('the log of a full run holds no secret and no customer contact data', async () => {
    const { client, logLines } = harness();
    const results = await callEveryOperation(client);
    // Renewal, refusals and faults write their own lines too.
    await sandbox.control.advanceClock(16 * 60 * 1000);
    await client.ping();
    await failure(client.getProduct({ params: { productId: 'prod_missing' } }));
    await sandbox.control.addFault({ kind: 'reset', route: 'listShops', count: 1 });
    await client.listShops();

    const customer = results.getCustomer as {
      contact?: { email: string | null; phone: string | null; address: string | null };
    };
    const contact = customer.contact;
    expect(contact?.email).toBeTruthy();
    const secrets = [
      sandbox.full.password,
      sandbox.full.email,
      contact?.email,
      contact?.phone,
      contact?.address,
      'famille.moreau@example.com',
      'Bearer ',
      'eyJ',
    ].filter((value): value is string => typeof value === 'string' && value !== '');

    const log = logLines.join('\n');
    expect(logLines.length).toBeGreaterThan(35);
    expect(log).toContain('"event":"api.exchange"');
    expect(log).toContain('"event":"api.token.issued"');
    for (const secret of secrets) expect(log, secret).not.toContain(secret);
    expect(demoProducts.promoted).toBeTruthy();
  });
});
