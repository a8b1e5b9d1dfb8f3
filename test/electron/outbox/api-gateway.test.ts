import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiClient } from '../../../electron/api/client.ts';
import { createApiGateway, outboxClientRetry } from '../../../electron/outbox/api-gateway.ts';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import { startWireRecorder, type WireRecorder } from '../cli/wire-recorder.ts';
import { ALL_SCOPES_ACCOUNT, startTestSandbox, type TestSandbox } from './sandbox-support.ts';

let sb: TestSandbox;
let wire: WireRecorder;

beforeAll(async () => {
  sb = await startTestSandbox();
  wire = await startWireRecorder(sb.baseUrl);
});

afterAll(async () => {
  await wire?.close();
  await sb?.close();
});

it('sends the stored body itself, byte for byte, under its key: on every attempt the same bytes', async () => {
  const account = sb.sandbox.accounts.find((entry) => entry.email === ALL_SCOPES_ACCOUNT)!;
  const client = createApiClient({
    baseUrl: wire.baseUrl,
    credentials: async () => ({ email: account.email, password: account.password }),
    retry: outboxClientRetry,
  });
  const gateway = createApiGateway(client);
  const key = randomUUID();
  // Stored text that parsing and serialising again would change (spacing, key order, 1.50).
  const stored = '{ "reference": "till-9/0123456789abcdef", "currency": "EUR", "amount": 1.50 }';
  await gateway.debit(demoGiftCards.active, key, stored);
  await gateway.debit(demoGiftCards.active, key, stored);
  const debits = wire.requests.filter((request) => request.method === 'PUT');
  expect(debits).toEqual([
    {
      method: 'PUT',
      path: `/v1/gift-cards/${demoGiftCards.active}`,
      idempotencyKey: key,
      body: stored,
    },
    {
      method: 'PUT',
      path: `/v1/gift-cards/${demoGiftCards.active}`,
      idempotencyKey: key,
      body: stored,
    },
  ]);
  // Applied once: the second is the service's replay of the same key and bytes.
  expect(
    sb.control.ledger(demoGiftCards.active).filter((entry) => entry.idempotencyKey === key),
  ).toHaveLength(1);
});
