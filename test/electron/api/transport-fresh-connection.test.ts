import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { COUNTER_CONNECT_MS } from '../../../shared/ipc/counter-wait.ts';
import { type Transport, createTransport } from '../../../electron/api/transport.ts';
import { createApiGateway } from '../../../electron/outbox/api-gateway.ts';
import type { CommerceApiClient } from '../../../electron/api/index.ts';
import { defaultOfflineLimits, neverOffline } from '../../../electron/outbox/limits.ts';

/**
 * Issue 35 (0), the link cut with SYNs dropped: a debit over the offline per-debit cap must not go
 * out on the keep-alive connection a card read left open (a black-holed socket takes its bytes and
 * leaves their fate unknown). Asked for, the transport opens a connection for that request alone:
 * counted here as the server's 'connection' events while a pooled keep-alive connection exists.
 */

let server: Server | undefined;
let transport: Transport | undefined;
afterEach(async () => {
  transport?.close();
  transport = undefined;
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function countingServer() {
  const seen: IncomingHttpHeaders[] = [];
  let connections = 0;
  server = createServer((request, response) => {
    seen.push(request.headers);
    request.resume();
    request.on('end', () => response.end('{}'));
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1/gift-cards/x`, seen, connections: () => connections };
}

const get = (url: string) => ({ method: 'GET' as const, url, headers: {}, maxBytes: 1024 });

test('a request asked on a fresh connection opens a new TCP connection, never the pooled keep-alive one', async () => {
  const local = await countingServer();
  transport = createTransport({
    connectTimeoutMs: 1_000,
    responseTimeoutMs: 5_000,
    userAgent: 't',
  });

  // The card read: one keep-alive connection, reused by the next request.
  expect(await transport.send(get(local.url))).toMatchObject({ ok: true, reply: { status: 200 } });
  expect(await transport.send(get(local.url))).toMatchObject({ ok: true });
  expect(local.connections()).toBe(1);

  // The debit over the cap: its own connection, closed after it.
  const fresh = await transport.send({
    method: 'PUT',
    url: local.url,
    headers: { 'Idempotency-Key': 'k1', 'Content-Type': 'application/json' },
    body: '{"amount":60}',
    maxBytes: 1024,
    freshConnection: true,
  });
  expect(fresh).toMatchObject({ ok: true, reply: { status: 200 } });
  expect(local.connections()).toBe(2);
  expect(local.seen.at(-1)).toMatchObject({ connection: 'close', 'idempotency-key': 'k1' });
  // Again: another new one (its own did not stay pooled).
  await transport.send({ ...get(local.url), freshConnection: true });
  expect(local.connections()).toBe(3);

  // Other requests still use the pool.
  await transport.send(get(local.url));
  expect(local.connections()).toBe(3);
  expect(local.seen.at(-1)?.connection).toBe('keep-alive');
});

test('with nothing listening, a fresh connection fails before a byte is sent', async () => {
  const local = await countingServer();
  transport = createTransport({
    connectTimeoutMs: 1_000,
    responseTimeoutMs: 5_000,
    userAgent: 't',
  });
  await transport.send(get(local.url));
  // The listener goes; the pooled socket stays open on the server's side.
  server!.close();
  const outcome = await transport.send({ ...get(local.url), freshConnection: true });
  expect(outcome).toMatchObject({
    ok: false,
    failure: { kind: 'network', requestSent: false, systemCode: 'ECONNREFUSED' },
  });
});

test('the sender asks a fresh connection for a debit over the per-debit offline cap only', async () => {
  const limits = { ...defaultOfflineLimits, maxOfflineDebitAmount: 50 };
  expect(neverOffline(60, limits)).toBe(true);
  expect(neverOffline(50, limits)).toBe(false);
  expect(neverOffline(50.004, limits)).toBe(false);
  expect(neverOffline(50.01, limits)).toBe(true);

  // The gateway passes it to the client's call options, with the counter's connect timeout.
  const calls: unknown[] = [];
  const client = {
    debitGiftCard: (...args: unknown[]) => {
      calls.push(args[1]);
      return Promise.reject(new Error('not here'));
    },
    getGiftCard: () => Promise.reject(new Error('not here')),
    serviceClock: undefined,
  } as unknown as CommerceApiClient;
  const gateway = createApiGateway(client);
  await expect(gateway.debit('c', 'k', '{}', { freshConnection: true })).rejects.toThrow();
  await expect(gateway.debit('c', 'k', '{}')).rejects.toThrow();
  expect(calls).toEqual([
    { freshConnection: true, connectTimeoutMs: COUNTER_CONNECT_MS },
    { freshConnection: false },
  ]);
});
