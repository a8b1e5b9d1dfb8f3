import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { GiftCard, GiftCardDebitReceipt } from '../../../shared/api/gift-cards.ts';
import { demoGiftCardBalances, demoGiftCards } from '../../../sandbox/data/demo.ts';
import type { LedgerEntry } from '../../../sandbox/index.ts';
import { type Client, emails, expectError, startClient } from './helpers.ts';

let client: Client;
beforeAll(async () => {
  client = await startClient();
});
afterAll(() => client.sandbox.close());
afterEach(async () => {
  await client.control('DELETE', '/faults');
  await client.control('POST', '/reset');
});

const cardPath = (id: string) => `/v1/gift-cards/${id}`;
/** `key: null` sends no Idempotency-Key header. */
const debit = (
  id: string,
  body: unknown,
  key: string | null = randomUUID(),
  email: string = emails.all,
) =>
  client.as(email, cardPath(id), {
    method: 'PUT',
    body,
    headers: key === null ? {} : { 'Idempotency-Key': key },
  });
const ledger = async (): Promise<LedgerEntry[]> =>
  ((await client.control('GET', '/ledger')).body as { debits: LedgerEntry[] }).debits;
const balance = async (id: string) =>
  GiftCard.parse((await client.as(emails.all, cardPath(id))).body).balance;

describe('PUT /v1/gift-cards/{giftCardId} (debit)', () => {
  test('applies the debit: balance computed by the server, usage with the client reference, ledger line', async () => {
    const key = randomUUID();
    const reply = await debit(
      demoGiftCards.active,
      { amount: 14.5, currency: 'EUR', reference: 'kiosk-42' },
      key,
    );
    expect(reply.status).toBe(200);
    const receipt = GiftCardDebitReceipt.parse(reply.body);
    expect(receipt).toMatchObject({
      giftCardId: demoGiftCards.active,
      amount: 14.5,
      currency: 'EUR',
      reference: 'kiosk-42',
      balance: 100,
    });
    expect(await balance(demoGiftCards.active)).toBe(100);
    const card = GiftCard.parse(
      (await client.as(emails.all, `${cardPath(demoGiftCards.active)}?include=usages`)).body,
    );
    expect(card.usages!.at(-1)).toMatchObject({
      id: receipt.id,
      amount: 14.5,
      reference: 'kiosk-42',
    });
    expect(await ledger()).toEqual([
      expect.objectContaining({
        giftCardId: demoGiftCards.active,
        amount: 14.5,
        idempotencyKey: key,
        reference: 'kiosk-42',
        usageId: receipt.id,
        at: receipt.at,
      }),
    ]);
  });

  test('requires an Idempotency-Key header (400) and a valid body', async () => {
    const body = expectError(
      await debit(demoGiftCards.active, { amount: 1, currency: 'EUR' }, null),
      400,
      'INVALID_REQUEST',
    );
    expect(body.message).toMatch(/Idempotency-Key/);
    expectError(
      await debit(demoGiftCards.active, { amount: 1, currency: 'EUR' }, ''),
      400,
      'INVALID_REQUEST',
    );
    for (const bad of [
      'not json',
      { amount: 0, currency: 'EUR' },
      { amount: 1.001, currency: 'EUR' },
      { amount: 1, currency: 'USD' },
      { amount: 1 },
      { amount: 1, currency: 'EUR', tip: 1 },
    ]) {
      const reply = await debit(demoGiftCards.active, bad);
      expect(reply.status, JSON.stringify(bad)).toBe(400);
      expectError(reply, 400, 'INVALID_REQUEST');
    }
    expectError(
      await debit(demoGiftCards.active, { amount: 1, currency: 'EUR', shopId: 'shop_nowhere' }),
      400,
      'INVALID_REQUEST',
    );
    expect(await ledger()).toEqual([]);
  });

  test('same key, same card, same body: the first reply again, and one debit only', async () => {
    const key = randomUUID();
    const first = await debit(
      demoGiftCards.active,
      { amount: 10, currency: 'EUR', reference: 'r1' },
      key,
    );
    // Same body, other key order and number spelling: compared as parsed JSON.
    const second = await client.as(emails.all, cardPath(demoGiftCards.active), {
      method: 'PUT',
      rawBody: '{ "reference": "r1", "currency": "EUR", "amount": 10.0 }',
      headers: { 'Idempotency-Key': key, 'content-type': 'application/json' },
    });
    expect(second.status).toBe(first.status);
    expect(second.bytes).toEqual(first.bytes);
    expect(await ledger()).toHaveLength(1);
    expect(await balance(demoGiftCards.active)).toBe(demoGiftCardBalances.active - 10);
  });

  test("same key with another body or another card: 409 CONFLICT (the spec's code for every 409), nothing applied", async () => {
    const key = randomUUID();
    expect((await debit(demoGiftCards.active, { amount: 10, currency: 'EUR' }, key)).status).toBe(
      200,
    );
    const otherBody = expectError(
      await debit(demoGiftCards.active, { amount: 11, currency: 'EUR' }, key),
      409,
      'CONFLICT',
    );
    expect(otherBody.message).toMatch(
      /^CONFLICT: Idempotency-Key reused inconsistently: .*different body/,
    );
    const otherCard = expectError(
      await debit(demoGiftCards.lowBalance, { amount: 10, currency: 'EUR' }, key),
      409,
      'CONFLICT',
    );
    expect(otherCard.message).toMatch(/another resource/);
    expect(await ledger()).toHaveLength(1);
  });

  test('business refusals are 409 with stable codes, and are replayed as they were', async () => {
    const key = randomUUID();
    const refused = await debit(demoGiftCards.lowBalance, { amount: 5, currency: 'EUR' }, key);
    const body = expectError(refused, 409, 'INSUFFICIENT_BALANCE');
    expect(body.message).toMatch(/^INSUFFICIENT_BALANCE: /);
    // Still a refusal on retry, byte for byte, even though the card could now be debited by another key.
    expect((await debit(demoGiftCards.lowBalance, { amount: 4.5, currency: 'EUR' })).status).toBe(
      200,
    );
    const replay = await debit(demoGiftCards.lowBalance, { amount: 5, currency: 'EUR' }, key);
    expect(replay.status).toBe(409);
    expect(replay.bytes).toEqual(refused.bytes);
    expectError(
      await debit(demoGiftCards.inactive, { amount: 1, currency: 'EUR' }),
      409,
      'GIFT_CARD_INACTIVE',
    );
    expectError(
      await debit(demoGiftCards.expired, { amount: 1, currency: 'EUR' }),
      409,
      'GIFT_CARD_EXPIRED',
    );
    expectError(
      await debit('gift_card_unknown', { amount: 1, currency: 'EUR' }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    expect((await ledger()).map((entry) => entry.amount)).toEqual([4.5]);
    expect(await balance(demoGiftCards.lowBalance)).toBe(0);
  });

  test('the exact balance can be debited; one cent more cannot', async () => {
    expectError(
      await debit(demoGiftCards.active, { amount: 114.51, currency: 'EUR' }),
      409,
      'INSUFFICIENT_BALANCE',
    );
    expect(
      GiftCardDebitReceipt.parse(
        (await debit(demoGiftCards.active, { amount: 114.5, currency: 'EUR' })).body,
      ).balance,
    ).toBe(0);
  });

  test('keys are per account and forgotten after the retention window (sandbox clock)', async () => {
    const key = randomUUID();
    const body = { amount: 1, currency: 'EUR' };
    expect((await debit(demoGiftCards.active, body, key)).status).toBe(200);
    // Another account using the same key is another write.
    await client.control('PUT', `/accounts/${encodeURIComponent(emails.noGiftCardWrite)}/scopes`, {
      scopes: ['gift-cards:write'],
    });
    expect((await debit(demoGiftCards.active, body, key, emails.noGiftCardWrite)).status).toBe(200);
    expect(await ledger()).toHaveLength(2);
    await client.control('POST', '/clock/advance', { ms: 23 * 60 * 60 * 1000 });
    await client.login(emails.all, true);
    await debit(demoGiftCards.active, body, key);
    expect(await ledger()).toHaveLength(2);
    await client.control('POST', '/clock/advance', { ms: 60 * 60 * 1000 });
    await client.login(emails.all, true);
    expect((await debit(demoGiftCards.active, { amount: 2, currency: 'EUR' }, key)).status).toBe(
      200,
    );
    expect(await ledger()).toHaveLength(3);
  });

  test('the retention window is configurable', async () => {
    expect((await client.control('PUT', '/idempotency', { retentionMs: 1000 })).status).toBe(200);
    const key = randomUUID();
    await debit(demoGiftCards.active, { amount: 1, currency: 'EUR' }, key);
    await client.control('POST', '/clock/advance', { ms: 1001 });
    expect((await debit(demoGiftCards.active, { amount: 3, currency: 'EUR' }, key)).status).toBe(
      200,
    );
    expect(await ledger()).toHaveLength(2);
    await client.control('PUT', '/idempotency', { retentionMs: 24 * 60 * 60 * 1000 });
  });

  test('needs gift-cards:write', async () => {
    const body = expectError(
      await debit(
        demoGiftCards.active,
        { amount: 1, currency: 'EUR' },
        randomUUID(),
        emails.noGiftCardWrite,
      ),
      403,
      'FORBIDDEN',
    );
    expect(body.missingScopes).toEqual(['gift-cards:write']);
  });
});

describe('network failures around a debit', () => {
  test('commit-then-reset: the write is applied, the client gets no reply; the retry gets the replay', async () => {
    const armed = await client.control('POST', '/faults', {
      kind: 'commit-then-reset',
      route: 'debitGiftCard',
      count: 1,
    });
    expect(armed.status).toBe(201);
    const key = randomUUID();
    const body = { amount: 20, currency: 'EUR', reference: 'order-7' };
    await expect(debit(demoGiftCards.active, body, key)).rejects.toThrow();
    expect(await ledger()).toHaveLength(1);
    const retry = await debit(demoGiftCards.active, body, key);
    expect(retry.status).toBe(200);
    const receipt = GiftCardDebitReceipt.parse(retry.body);
    expect(receipt).toMatchObject({
      reference: 'order-7',
      balance: demoGiftCardBalances.active - 20,
    });
    const debits = await ledger();
    expect(debits).toHaveLength(1);
    expect(debits[0]).toMatchObject({ idempotencyKey: key, usageId: receipt.id, amount: 20 });
  });

  test('reset before processing: nothing is applied; the retry applies it once', async () => {
    await client.control('POST', '/faults', {
      kind: 'reset',
      route: '/v1/gift-cards/{giftCardId}',
      method: 'PUT',
      count: 1,
    });
    const key = randomUUID();
    const body = { amount: 5, currency: 'EUR' };
    await expect(debit(demoGiftCards.active, body, key)).rejects.toThrow();
    expect(await ledger()).toEqual([]);
    expect((await debit(demoGiftCards.active, body, key)).status).toBe(200);
    expect(await ledger()).toHaveLength(1);
  });

  test('a 503 or 500 before processing applies nothing; the retry with the same key applies once', async () => {
    await client.control('POST', '/faults', {
      kind: 'unavailable',
      route: 'debitGiftCard',
      count: 1,
      retryAfterSeconds: 2,
    });
    await client.control('POST', '/faults', {
      kind: 'internal-error',
      route: 'debitGiftCard',
      count: 1,
    });
    const key = randomUUID();
    const body = { amount: 5, currency: 'EUR' };
    const unavailable = await debit(demoGiftCards.active, body, key);
    expectError(unavailable, 503, 'SERVICE_UNAVAILABLE');
    expect(unavailable.headers.get('retry-after')).toBe('2');
    expectError(await debit(demoGiftCards.active, body, key), 500, 'INTERNAL_SERVER_ERROR');
    expect(await ledger()).toEqual([]);
    expect((await debit(demoGiftCards.active, body, key)).status).toBe(200);
    expect((await debit(demoGiftCards.active, body, key)).status).toBe(200);
    expect(await ledger()).toHaveLength(1);
  });
});
