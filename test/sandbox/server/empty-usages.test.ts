import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { GiftCard } from '../../../shared/api/gift-cards.ts';
import { demoGiftCardBalances, demoGiftCards } from '../../../sandbox/data/demo.ts';
import type { LedgerEntry } from '../../../sandbox/index.ts';
import { type Client, emails, expectError, startClient } from './helpers.ts';

/**
 * A service whose usage lists are always empty (many real ones): `emptyUsages` at start, or
 * `PUT /__sandbox/usages` at any time. Debits are applied and in the ledger all the same; only
 * the card's usage list says nothing.
 */

const cardPath = (id: string) => `/v1/gift-cards/${id}`;

describe('empty usage lists', () => {
  let client: Client;
  beforeAll(async () => {
    client = await startClient();
  });
  afterAll(() => client.sandbox.close());

  const usages = async () =>
    GiftCard.parse(
      (await client.as(emails.all, `${cardPath(demoGiftCards.active)}?include=usages`)).body,
    );
  const ledger = async (): Promise<LedgerEntry[]> =>
    ((await client.control('GET', '/ledger')).body as { debits: LedgerEntry[] }).debits;

  test('switched on from the control surface: the debit is applied, the card shows no usage; switched off, it does', async () => {
    expect((await client.control('PUT', '/usages', { empty: true })).body).toEqual({
      empty: true,
    });
    expect((await client.control('GET', '/')).body).toMatchObject({ emptyUsages: true });
    const reply = await client.as(emails.all, cardPath(demoGiftCards.active), {
      method: 'PUT',
      body: { amount: 5, currency: 'EUR', reference: 'till-1/abc' },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(reply.status).toBe(200);
    const card = await usages();
    expect(card.usages).toEqual([]);
    expect(card.balance).toBe(demoGiftCardBalances.active - 5);
    expect(await ledger()).toEqual([expect.objectContaining({ reference: 'till-1/abc' })]);

    // A reset keeps it, as it keeps the clock and the faults.
    await client.control('POST', '/reset');
    expect((await usages()).usages).toEqual([]);

    await client.control('PUT', '/usages', { empty: false });
    await client.as(emails.all, cardPath(demoGiftCards.active), {
      method: 'PUT',
      body: { amount: 2, currency: 'EUR', reference: 'till-1/def' },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect((await usages()).usages).toContainEqual(
      expect.objectContaining({ reference: 'till-1/def', amount: 2 }),
    );
    expectError(await client.control('PUT', '/usages', { empty: 'yes' }), 400, 'INVALID_REQUEST');
  });

  test('set at start: every card answers an empty list', async () => {
    const started = await startClient({ emptyUsages: true });
    try {
      for (const id of Object.values(demoGiftCards)) {
        const reply = await started.as(emails.all, `${cardPath(id)}?include=usages`);
        expect((reply.body as { usages: unknown[] }).usages).toEqual([]);
      }
    } finally {
      await started.sandbox.close();
    }
  });
});
