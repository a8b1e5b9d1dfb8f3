import { connect } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { CommerceApiClient, type ApiClientOptions } from '../../../electron/api/client.ts';
import {
  ContractViolation,
  CredentialsRejected,
  InternalError,
  InvalidRequest,
  RateLimited,
  ServiceUnavailable,
  Timeout,
} from '../../../electron/api/errors.ts';
import { armConnectTimeout } from '../../../electron/api/transport.ts';
import { FakeClock } from './support/fake-clock.ts';
import {
  type Handler,
  type LocalServer,
  fakeJwt,
  sendJson,
  startLocalServer,
  withAuth,
} from './support/local-server.ts';

/**
 * The client against tiny real HTTP servers that answer what the sandbox never would: shapes
 * outside the contract, stalls, scripted failure sequences whose bytes we inspect.
 */

let server: LocalServer | undefined;
const clients: CommerceApiClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await server?.close();
  server = undefined;
});

async function setup(handler: Handler, options: Partial<ApiClientOptions> = {}) {
  server = await startLocalServer(handler);
  const clock = new FakeClock(Date.now());
  const client = new CommerceApiClient({
    baseUrl: server.baseUrl,
    credentials: async () => ({ email: 'kiosk@example.test', password: 'pw' }),
    clock,
    random: () => 0.5,
    ...options,
  });
  clients.push(client);
  return { client, clock, requests: server.requests };
}

async function failure<T>(promise: Promise<T>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

const pdf = (
  response: import('node:http').ServerResponse,
  body: string | Buffer,
  type = 'application/pdf',
) => {
  response.writeHead(200, { 'content-type': type });
  response.end(body);
};

describe('contract violations from a real server', () => {
  test('a wrong shape names the operation and the first offending path, and is not retried', async () => {
    const { client, requests } = await setup(
      withAuth((_request, response) =>
        sendJson(response, 200, {
          data: [],
          pagination: { page: 1, limit: 50, count: 0, total: 0, totalPages: 0, hasNextPage: 'no' },
        }),
      ),
    );
    const error = await failure(client.listProducts());
    expect(error).toBeInstanceOf(ContractViolation);
    expect(error).toMatchObject({
      operationId: 'listProducts',
      path: 'pagination.hasNextPage',
      reason: 'shape',
      code: 'CONTRACT_VIOLATION',
      status: 200,
    });
    expect((error as Error).message).toMatch(
      /^CONTRACT_VIOLATION: listProducts: pagination.hasNextPage: /,
    );
    expect(requests.filter((request) => request.url?.startsWith('/v1/products'))).toHaveLength(1);
  });

  test('a reply the spec does not show is kept as returned: only its identifier is required', async () => {
    const card = { pan: '**** 9088', funds: { remaining: 4.5 }, state: 'ACTIVE' };
    const { client } = await setup(
      withAuth((request, response) => {
        if (request.url === '/v1/ping') return sendJson(response, 200, { apiVersion: 1 });
        if (request.url?.startsWith('/v1/shops'))
          return sendJson(response, 200, {
            data: [{ id: 'shop_1', label: 'Paris' }, { label: 'x' }],
          });
        if (request.url === '/v1/gift-cards/gc_1')
          return sendJson(response, 200, { id: 'gc_1', ...card });
        return sendJson(response, 200, card);
      }),
    );
    // Whatever the ping body is, it comes back as it was.
    expect(await client.ping()).toEqual({ apiVersion: 1 });
    expect(await client.getGiftCard({ params: { giftCardId: 'gc_1' } })).toEqual({
      id: 'gc_1',
      ...card,
    });
    // Without its public identifier the kiosk cannot use a record: that alone is a violation.
    expect(await failure(client.getGiftCard({ params: { giftCardId: 'gc_2' } }))).toMatchObject({
      kind: 'ContractViolation',
      path: 'id',
    });
    expect(await failure(client.listShops())).toMatchObject({
      kind: 'ContractViolation',
      path: 'data[1].id',
    });
  });

  test('an unknown member of a closed object is named itself', async () => {
    const now = new Date().toISOString();
    const { client } = await setup(
      withAuth((_request, response) =>
        sendJson(response, 200, {
          since: now,
          until: now,
          changes: [
            { type: 'product', id: 'p1', action: 'updated', updatedAt: now, colour: 'red' },
          ],
          pagination: { page: 1, limit: 100, total: 1, hasNextPage: false },
        }),
      ),
    );
    const error = await failure(client.listCatalogChanges({ query: { since: now } }));
    expect(error).toMatchObject({
      kind: 'ContractViolation',
      operationId: 'listCatalogChanges',
      path: 'changes[0].colour',
    });
  });

  test('HTML or broken JSON on a JSON route', async () => {
    let mode: 'html' | 'broken' = 'html';
    const { client } = await setup(
      withAuth((_request, response) => {
        if (mode === 'html') {
          response.writeHead(200, { 'content-type': 'text/html' });
          response.end('<html>captive portal</html>');
        } else {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end('{"version":');
        }
      }),
    );
    expect(await failure(client.ping())).toMatchObject({
      kind: 'ContractViolation',
      reason: 'content-type',
    });
    mode = 'broken';
    expect(await failure(client.ping())).toMatchObject({
      kind: 'ContractViolation',
      reason: 'json',
    });
  });

  test('PDF routes: content type, magic bytes and size limit are checked', async () => {
    let body: string | Buffer = '<html>error</html>';
    let type = 'text/html';
    const { client } = await setup(
      withAuth((_request, response) => pdf(response, body, type)),
      { pdfMaxBytes: 1_000 },
    );
    const invoice = () => client.downloadSaleInvoice({ params: { saleId: 'sale_1' } });
    expect(await failure(invoice())).toMatchObject({
      kind: 'ContractViolation',
      reason: 'content-type',
      operationId: 'downloadSaleInvoice',
    });
    type = 'application/pdf';
    expect(await failure(invoice())).toMatchObject({ reason: 'pdf-magic' });
    body = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(5_000, 0x20)]);
    expect(await failure(invoice())).toMatchObject({ reason: 'too-large' });
    body = '%PDF-1.7\n%%EOF\n';
    const document = await invoice();
    expect(Buffer.from(document.bytes).toString()).toBe('%PDF-1.7\n%%EOF\n');
  });
});

describe('retries against scripted failures', () => {
  test('a gift-card debit is resent with exactly the same key and bytes after 503s', async () => {
    let puts = 0;
    const { client, clock, requests } = await setup(
      withAuth((request, response) => {
        puts += 1;
        if (puts <= 2)
          return sendJson(response, 503, {
            message: 'SERVICE_UNAVAILABLE: deploying',
            statusCode: 503,
          });
        const body = JSON.parse(request.body) as { amount: number; reference: string };
        sendJson(response, 200, {
          id: 'usage_1',
          giftCardId: 'gift_card_1',
          amount: body.amount,
          currency: 'EUR',
          reference: body.reference,
          balance: 37.5,
          at: new Date().toISOString(),
        });
      }),
    );
    const receipt = await client.debitGiftCard({
      params: { giftCardId: 'gift_card_1' },
      headers: { 'Idempotency-Key': '5f0c1d2e-0000-4000-8000-000000000001' },
      body: { amount: 12.5, currency: 'EUR', reference: 'till-3-0042' },
    });
    expect(receipt.balance).toBe(37.5);
    const sent = requests.filter((request) => request.method === 'PUT');
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((request) => request.body))).toEqual(
      new Set(['{"amount":12.5,"currency":"EUR","reference":"till-3-0042"}']),
    );
    expect(new Set(sent.map((request) => request.headers['idempotency-key']))).toEqual(
      new Set(['5f0c1d2e-0000-4000-8000-000000000001']),
    );
    expect(sent.every((request) => request.url === '/v1/gift-cards/gift_card_1')).toBe(true);
    // Full jitter with random() = 0.5 and base 250 ms: 125 then 250.
    expect(clock.sleeps).toEqual([125, 250]);
  });

  test('a customer replacement is not resent after a 500 (the outcome may have been applied)', async () => {
    const { client, requests } = await setup(
      withAuth((_request, response) =>
        sendJson(response, 500, { message: 'INTERNAL_SERVER_ERROR: boom' }),
      ),
    );
    const error = await failure(
      client.replaceCustomer({
        params: { customerId: 'customer_1' },
        body: { typeCustomer: 'individual', firstName: 'A', lastName: 'B' },
      }),
    );
    expect(error).toBeInstanceOf(InternalError);
    expect(requests.filter((request) => request.method === 'PUT')).toHaveLength(1);
  });

  test('Retry-After is honoured; beyond the cap the RateLimited error surfaces with retryAfterMs', async () => {
    let retryAfter = '2';
    let calls = 0;
    const { client, clock, requests } = await setup(
      withAuth((_request, response) => {
        calls += 1;
        if (calls % 2 === 1)
          return sendJson(
            response,
            429,
            { message: 'RATE_LIMITED: slow down' },
            { 'retry-after': retryAfter },
          );
        sendJson(response, 200, { version: '1.0.0' });
      }),
      { retry: { retryAfter: { capMs: 5_000, jitterMs: 100 } } },
    );
    expect(await client.ping()).toEqual({ version: '1.0.0' });
    expect(clock.sleeps).toEqual([2_050]);
    retryAfter = '60';
    const error = await failure(client.ping());
    expect(error).toBeInstanceOf(RateLimited);
    expect((error as RateLimited).retryAfterMs).toBe(60_000);
    expect(clock.sleeps).toEqual([2_050]);
    expect(requests.filter((request) => request.url === '/v1/ping')).toHaveLength(3);
  });

  test('the retry budget stops retries across calls, then refills with time', async () => {
    const { client, clock, requests } = await setup(
      withAuth((_request, response) =>
        sendJson(response, 503, { message: 'SERVICE_UNAVAILABLE: down' }),
      ),
      {
        retry: {
          rules: { read: { maxAttempts: 10 } },
          budget: { capacity: 2, refillPerSecond: 1 },
          backoff: { baseMs: 1, capMs: 1 },
        },
      },
    );
    const pings = () => requests.filter((request) => request.url === '/v1/ping').length;
    expect(await failure(client.ping())).toBeInstanceOf(ServiceUnavailable);
    expect(pings()).toBe(3);
    expect(await failure(client.ping())).toBeInstanceOf(ServiceUnavailable);
    expect(pings()).toBe(4);
    clock.advance(1_000);
    expect(await failure(client.ping())).toBeInstanceOf(ServiceUnavailable);
    expect(pings()).toBe(6);
  });

  test('a stalled reply times out (response phase) and is retried per policy', async () => {
    const { client, requests } = await setup(
      withAuth(() => {
        /* never answers */
      }),
      { timeouts: { responseMs: 150 }, retry: { rules: { read: { maxAttempts: 2 } } } },
    );
    const error = await failure(client.ping());
    expect(error).toBeInstanceOf(Timeout);
    expect(error).toMatchObject({ phase: 'response', timeoutMs: 150, code: 'TIMEOUT' });
    expect(requests.filter((request) => request.url === '/v1/ping')).toHaveLength(2);
  });

  test('cancelling a call stops its retries', async () => {
    const controller = new AbortController();
    const { client, requests } = await setup(
      withAuth((_request, response) => {
        controller.abort(new Error('staff pressed cancel'));
        sendJson(response, 503, { message: 'SERVICE_UNAVAILABLE: down' });
      }),
    );
    await expect(client.ping(undefined, { signal: controller.signal })).rejects.toThrow(
      'staff pressed cancel',
    );
    expect(requests.filter((request) => request.url === '/v1/ping')).toHaveLength(1);
  });
});

describe('authentication edge cases', () => {
  test('a fresh token refused again gives CredentialsRejected after exactly one renewal', async () => {
    const { client, requests } = await setup(
      withAuth((_request, response) =>
        sendJson(response, 401, { message: 'UNAUTHORIZED: identity unusable' }),
      ),
    );
    const error = await failure(client.ping());
    expect(error).toBeInstanceOf(CredentialsRejected);
    expect((error as CredentialsRejected).explanation).toMatch(/integration account must be fixed/);
    expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /auth',
      'GET /v1/ping',
      'POST /auth',
      'GET /v1/ping',
    ]);
    // The bearer token went out on the business calls only.
    expect(requests[0]?.headers.authorization).toBeUndefined();
    expect(requests[1]?.headers.authorization).toMatch(/^Bearer /);
  });

  test('an unreadable credential store gives CredentialsRejected without a request', async () => {
    const { client, requests } = await setup(
      withAuth(() => {}),
      {
        credentials: async () => {
          throw new Error('keychain locked');
        },
      },
    );
    expect(await failure(client.ping())).toMatchObject({
      kind: 'CredentialsRejected',
      code: 'CREDENTIALS_UNAVAILABLE',
    });
    expect(requests).toHaveLength(0);
  });

  test('authenticate() reports the session without handing out the token', async () => {
    const { client } = await setup((_request, response) =>
      sendJson(response, 200, { token: fakeJwt({ exp: 1_900_000_000, scopes: ['sales:read'] }) }),
    );
    expect(await client.authenticate()).toEqual({
      authenticated: true,
      expiresAt: new Date(1_900_000_000_000).toISOString(),
      scopes: ['sales:read'],
    });
  });
});

describe('local refusals', () => {
  test('an invalid request is refused before any byte is sent, token included', async () => {
    const { client, requests } = await setup(
      withAuth((_request, response) => sendJson(response, 200, {})),
    );
    const error = await failure(client.listProducts({ query: { limit: 0 } }));
    expect(error).toBeInstanceOf(InvalidRequest);
    expect(error).toMatchObject({ local: true, operationId: 'listProducts', status: undefined });
    // A caller bypassing the types gets the same refusal.
    const untyped = client.listProducts as unknown as (input: unknown) => Promise<unknown>;
    expect(await failure(untyped.call(client, { query: { secret: '1' } }))).toBeInstanceOf(
      InvalidRequest,
    );
    expect(requests).toHaveLength(0);
  });
});

describe('connect timeout', () => {
  test('a socket still connecting after the limit is destroyed with the connect-timeout code', async () => {
    // A lookup that never answers keeps the socket in its connecting phase.
    const socket = connect({ host: 'kiosk.never.test', port: 80, lookup: () => {} });
    armConnectTimeout(socket, 50);
    const error = await new Promise<NodeJS.ErrnoException>((resolve) =>
      socket.once('error', resolve),
    );
    expect(error.code).toBe('ECONNECTTIMEOUT');
    expect(socket.destroyed).toBe(true);
  });
});
