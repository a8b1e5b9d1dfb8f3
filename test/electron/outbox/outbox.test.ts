import { randomUUID } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GiftCardDebit } from '../../../shared/api/gift-cards.ts';
import { demoGiftCardBalances, demoGiftCards } from '../../../sandbox/data/demo.ts';
import { createApiGateway } from '../../../electron/outbox/api-gateway.ts';
import { OutboxError } from '../../../electron/outbox/errors.ts';
import type { ConnectivityStatus, OutboxEvent } from '../../../electron/outbox/events.ts';
import { OfflineLimitExceeded, type OfflineLimits } from '../../../electron/outbox/limits.ts';
import {
  MAX_CALLER_REFERENCE_LENGTH,
  Outbox,
  referenceFor,
} from '../../../electron/outbox/outbox.ts';
import { OutboxSender } from '../../../electron/outbox/sender.ts';
import { kioskSchema } from '../../../electron/schema.ts';
import { openDatabase } from '../../../electron/storage/database.ts';
import { startTestSandbox } from './sandbox-support.ts';
import { ShiftedClock, tempDataDir } from './support.ts';

let data: ReturnType<typeof tempDataDir>;
let connectivity: ConnectivityStatus;
let clock: ShiftedClock;

function outbox(limits: Partial<OfflineLimits> = {}, extra: { shopId?: string } = {}): Outbox {
  return new Outbox({ db: data.open(), clock, limits, connectivity: () => connectivity, ...extra });
}

beforeEach(() => {
  data = tempDataDir();
  connectivity = 'online';
  clock = new ShiftedClock();
});

afterEach(() => data.cleanup());

describe('enqueue', () => {
  it('commits the row before returning: another connection sees it at once', () => {
    const box = outbox();
    const { debit, delivery } = box.enqueue({
      giftCardId: 'gift_card_1',
      amount: 12.5,
      reference: 'sale-42',
    });
    const other = new DatabaseSync(box.db.path, { readOnly: true });
    try {
      const row = other.prepare('SELECT * FROM outbox_debits WHERE id = ?').get(debit.id);
      expect(row).toMatchObject({
        idempotency_key: debit.idempotencyKey,
        gift_card_id: 'gift_card_1',
        state: 'pending',
        attempts: 0,
        amount_cents: 1250,
        request_body: debit.requestBody,
      });
    } finally {
      other.close();
    }
    expect(delivery).toBe('send-now');
    expect(debit.idempotencyKey).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(debit.reference).toBe(referenceFor(debit.idempotencyKey, 'sale-42'));
  });

  it('stores the exact body the contract accepts, re-serialised byte for byte', () => {
    const box = outbox({}, { shopId: 'shop_lyon' });
    const { debit } = box.enqueue({ giftCardId: 'gift_card_1', amount: 0.1 });
    const body: unknown = JSON.parse(debit.requestBody);
    expect(body).toEqual({
      amount: 0.1,
      currency: 'EUR',
      reference: debit.reference,
      shopId: 'shop_lyon',
    });
    // The client parses with the same schema and JSON.stringify: the same bytes go out every time.
    expect(JSON.stringify(GiftCardDebit.parse(body))).toBe(debit.requestBody);
  });

  it('snaps float noise to whole cents before it reaches the body', () => {
    const { debit } = outbox().enqueue({ giftCardId: 'gift_card_1', amount: 0.1 + 0.2 });
    expect(debit.requestBody).toContain('"amount":0.3,');
    expect(debit.amountCents).toBe(30);
  });

  it('gives every row a unique key and a unique reference, even with the same caller reference', () => {
    const box = outbox();
    const a = box.enqueue({ giftCardId: 'gift_card_1', amount: 1, reference: 'same' }).debit;
    const b = box.enqueue({ giftCardId: 'gift_card_1', amount: 1, reference: 'same' }).debit;
    expect(a.idempotencyKey).not.toBe(b.idempotencyKey);
    expect(a.reference).not.toBe(b.reference);
    expect(a.reference.length).toBeLessThanOrEqual(64);
  });

  it.each([
    [{ giftCardId: 'gift_card_1', amount: 0 }, 'amount'],
    [{ giftCardId: 'gift_card_1', amount: -3 }, 'amount'],
    [{ giftCardId: 'gift_card_1', amount: 1.234 }, 'amount'],
    [{ giftCardId: 'gift_card_1', amount: Number.NaN }, 'amount'],
    [{ giftCardId: '', amount: 1 }, 'giftCardId'],
    [{ giftCardId: ' gift_card_1', amount: 1 }, 'giftCardId'],
    [
      {
        giftCardId: 'gift_card_1',
        amount: 1,
        reference: 'x'.repeat(MAX_CALLER_REFERENCE_LENGTH + 1),
      },
      'reference',
    ],
  ])('refuses invalid input %j, storing nothing', (input, field) => {
    const box = outbox();
    expect(() => box.enqueue(input)).toThrow(
      expect.objectContaining({ code: 'OUTBOX_INVALID_DEBIT' }),
    );
    try {
      box.enqueue(input);
    } catch (error) {
      expect((error as Error).message).toContain(field);
    }
    expect(box.list()).toEqual([]);
  });

  it('require_online is refused while offline, before anything is stored; prefer_online is kept', () => {
    const box = outbox();
    const events: OutboxEvent[] = [];
    box.events.on('change', (event) => events.push(event));
    connectivity = 'offline';
    expect(() =>
      box.enqueue({ giftCardId: 'gift_card_1', amount: 5, policy: 'require_online' }),
    ).toThrow(expect.objectContaining({ code: 'OUTBOX_OFFLINE' }));
    expect(box.list()).toEqual([]);
    expect(events).toEqual([]);

    const kept = box.enqueue({ giftCardId: 'gift_card_1', amount: 5 });
    expect(kept.delivery).toBe('stored-offline');
    expect(kept.debit.acceptedOffline).toBe(true);
    expect(events).toEqual([{ type: 'accepted', debit: kept.debit, connectivity: 'offline' }]);

    connectivity = 'degraded';
    expect(
      box.enqueue({ giftCardId: 'gift_card_1', amount: 5, policy: 'require_online' }).delivery,
    ).toBe('send-now');
  });
});

describe('offline limits', () => {
  const limits: Partial<OfflineLimits> = {
    maxOfflineDebitAmount: 50,
    maxPendingAmount: 100,
    maxPendingAmountPerCard: 60,
    maxPendingCount: 3,
  };

  function refusal(fn: () => unknown): OfflineLimitExceeded {
    try {
      fn();
    } catch (error) {
      if (error instanceof OfflineLimitExceeded) return error;
      throw error;
    }
    throw new Error('expected a refusal');
  }

  it('refuses one debit above the offline maximum while not online, and says by how much', () => {
    const box = outbox(limits);
    connectivity = 'offline';
    const error = refusal(() => box.enqueue({ giftCardId: 'gift_card_1', amount: 50.01 }));
    expect(error.breach).toEqual({
      limit: 'maxOfflineDebitAmount',
      allowed: 50,
      wouldBe: 50.01,
      excess: 0.01,
      unit: 'EUR',
    });
    expect(error.message).toContain('maxOfflineDebitAmount is 50.00 EUR');
    expect(error.message).toContain('0.01 EUR over');
    expect(box.list()).toEqual([]);
    // Online with a wait, the cap is decided when the wait ends (awaitAnswer); a card read at
    // 80.00 passes the card checks, which run whatever the connectivity.
    box.recordCard({ id: 'gift_card_1', status: 'active', balance: 80, currency: 'EUR' });
    connectivity = 'online';
    expect(box.enqueue({ giftCardId: 'gift_card_1', amount: 50.01 }).debit.state).toBe('pending');
    // Online, but nobody waits for the answer: stored offline from the commit, the cap applies.
    expect(
      refusal(() => box.enqueue({ giftCardId: 'gift_card_2', amount: 50.01, waitMs: 0 })).breach
        .limit,
    ).toBe('maxOfflineDebitAmount');
  });

  it('refuses beyond the pending total of one card', () => {
    const box = outbox(limits);
    box.enqueue({ giftCardId: 'gift_card_1', amount: 40 });
    const error = refusal(() => box.enqueue({ giftCardId: 'gift_card_1', amount: 25.5 }));
    expect(error.breach).toEqual({
      limit: 'maxPendingAmountPerCard',
      allowed: 60,
      wouldBe: 65.5,
      excess: 5.5,
      unit: 'EUR',
    });
    expect(box.enqueue({ giftCardId: 'gift_card_2', amount: 25.5 }).debit.state).toBe('pending');
  });

  it('refuses beyond the pending total of all cards', () => {
    const box = outbox(limits);
    box.enqueue({ giftCardId: 'gift_card_1', amount: 45 });
    box.enqueue({ giftCardId: 'gift_card_2', amount: 45 });
    const error = refusal(() => box.enqueue({ giftCardId: 'gift_card_3', amount: 10.3 }));
    expect(error.breach).toEqual({
      limit: 'maxPendingAmount',
      allowed: 100,
      wouldBe: 100.3,
      excess: 0.3,
      unit: 'EUR',
    });
  });

  it('refuses beyond the pending count; settled rows free their place', () => {
    const box = outbox(limits);
    const first = box.enqueue({ giftCardId: 'gift_card_1', amount: 1 }).debit;
    box.enqueue({ giftCardId: 'gift_card_2', amount: 1 });
    box.enqueue({ giftCardId: 'gift_card_3', amount: 1 });
    const error = refusal(() => box.enqueue({ giftCardId: 'gift_card_4', amount: 1 }));
    expect(error.breach).toEqual({
      limit: 'maxPendingCount',
      allowed: 3,
      wouldBe: 4,
      excess: 1,
      unit: 'debits',
    });
    box.cancel(first.id);
    expect(box.enqueue({ giftCardId: 'gift_card_4', amount: 1 }).debit.state).toBe('pending');
  });

  it('counts rows committed by another process on the same data directory', () => {
    const a = outbox(limits);
    const b = outbox(limits);
    a.enqueue({ giftCardId: 'gift_card_1', amount: 30 });
    const error = refusal(() => b.enqueue({ giftCardId: 'gift_card_1', amount: 31 }));
    expect(error.breach.limit).toBe('maxPendingAmountPerCard');
  });

  it('refuses a configuration that makes no sense', () => {
    expect(() => outbox({ maxPendingCount: -1 })).toThrow(RangeError);
    expect(() => outbox({ maxPendingAmount: Number.NaN })).toThrow(RangeError);
  });
});

describe('cancel, summary, waiting', () => {
  it('cancels only a row never attempted', () => {
    const box = outbox();
    const events: OutboxEvent[] = [];
    box.events.on('change', (event) => events.push(event));
    const a = box.enqueue({ giftCardId: 'gift_card_1', amount: 3 }).debit;
    const b = box.enqueue({ giftCardId: 'gift_card_1', amount: 4 }).debit;
    // As the sender would leave it after an attempt without an answer.
    box.db.connection.prepare(`UPDATE outbox_debits SET attempts = 1 WHERE id = ?`).run(b.id);

    const cancelled = box.cancel(a.id);
    expect(cancelled).toMatchObject({ state: 'cancelled', settledBy: 'staff' });
    expect(events.at(-1)).toMatchObject({
      type: 'state-changed',
      from: 'pending',
      to: 'cancelled',
    });
    expect(() => box.cancel(b.id)).toThrow(
      expect.objectContaining({ code: 'OUTBOX_NOT_CANCELLABLE' }),
    );
    expect(() => box.cancel(a.id)).toThrow(
      expect.objectContaining({ code: 'OUTBOX_NOT_CANCELLABLE' }),
    );
    expect(() => box.cancel(999)).toThrow(expect.objectContaining({ code: 'OUTBOX_NOT_FOUND' }));
    expect(box.get(b.id).state).toBe('pending');
  });

  it('summarises pending count, amount, oldest age and what needs attention', () => {
    const box = outbox();
    expect(box.summary()).toEqual({
      openCount: 0,
      openAmount: 0,
      oldestOpenAgeMs: null,
      sendingCount: 0,
      outcomeUnknown: 0,
      attention: { refused: 0, failed: 0, expired: 0, total: 0 },
    });
    box.enqueue({ giftCardId: 'gift_card_1', amount: 0.1 });
    box.enqueue({ giftCardId: 'gift_card_2', amount: 0.2 });
    const refused = box.enqueue({ giftCardId: 'gift_card_3', amount: 5 }).debit;
    box.db.connection
      .prepare(`UPDATE outbox_debits SET state = 'refused' WHERE id = ?`)
      .run(refused.id);
    clock.advance(60_000);
    const summary = box.summary();
    expect(summary.openCount).toBe(2);
    expect(summary.openAmount).toBe(0.3);
    expect(summary.oldestOpenAgeMs).toBeGreaterThanOrEqual(60_000);
    expect(summary.attention).toEqual({ refused: 1, failed: 0, expired: 0, total: 1 });
    box.acknowledge(refused.id);
    expect(box.summary().attention.total).toBe(0);
  });

  it('waitForOutcome returns unsettled at the timeout, and settled when another connection settles it', async () => {
    const box = outbox();
    const { debit } = box.enqueue({ giftCardId: 'gift_card_1', amount: 2 });
    const early = await box.waitForOutcome(debit.id, 30);
    expect(early).toMatchObject({ settled: false, debit: { state: 'pending' } });

    const other = outbox();
    setTimeout(() => {
      other.db.connection
        .prepare(`UPDATE outbox_debits SET state = 'refused' WHERE id = ?`)
        .run(debit.id);
    }, 50);
    const outcome = await box.waitForOutcome(debit.id, 5_000);
    expect(outcome).toMatchObject({ settled: true, debit: { state: 'refused' } });
  });

  it('lists by state and refuses an unknown state', () => {
    const box = outbox();
    box.enqueue({ giftCardId: 'gift_card_1', amount: 2 });
    expect(box.list({ state: 'pending' })).toHaveLength(1);
    expect(box.list({ state: 'applied' })).toHaveLength(0);
    expect(() => box.list({ state: 'bogus' as 'pending' })).toThrow(OutboxError);
  });

  it('recent: the latest debits in any state, newest first, at most the limit', () => {
    const box = outbox();
    const ids = ['gift_card_1', 'gift_card_2', 'gift_card_1'].map(
      (giftCardId) => box.enqueue({ giftCardId, amount: 2 }).debit.id,
    );
    box.cancel(ids[1]!);
    expect(box.recent(2).map((debit) => [debit.id, debit.state])).toEqual([
      [ids[2], 'pending'],
      [ids[1], 'cancelled'],
    ]);
    expect(box.recent(10).map((debit) => debit.id)).toEqual([...ids].reverse());
  });
});

describe('request ids: one logical debit, one row', () => {
  it('the same request id again returns the stored debit, never a second row or event', () => {
    const box = outbox();
    const events: OutboxEvent[] = [];
    box.events.on('change', (event) => events.push(event));
    const requestId = randomUUID();
    const input = { requestId, giftCardId: 'gift_card_1', amount: 12.5, reference: 'sale-42' };
    const first = box.enqueue(input);
    const again = box.enqueue(input);
    expect(first.replayed).toBe(false);
    expect(again.replayed).toBe(true);
    expect(again.debit).toEqual(first.debit);
    expect(first.debit.requestId).toBe(requestId);
    expect(box.list()).toHaveLength(1);
    expect(events.map((event) => event.type)).toEqual(['accepted']);
    // However the caller typed it: a UUID is case-insensitive.
    expect(box.enqueue({ ...input, requestId: requestId.toUpperCase() }).debit.id).toBe(
      first.debit.id,
    );
    expect(box.findByRequestId(requestId.toUpperCase())?.id).toBe(first.debit.id);
  });

  it('a replay is the debit as it is now, without the checks it passed when accepted', () => {
    const box = outbox({ maxOfflineDebitAmount: 20, maxPendingCount: 1 });
    const requestId = randomUUID();
    const input = { requestId, giftCardId: 'gift_card_1', amount: 15 };
    const first = box.enqueue(input);
    // Full, offline, and the caller now insists on the service: the stored debit still comes back.
    connectivity = 'offline';
    const again = box.enqueue({ ...input, policy: 'require_online' });
    expect(again).toMatchObject({ replayed: true, delivery: 'stored-offline' });
    expect(again.debit.id).toBe(first.debit.id);
    box.cancel(first.debit.id);
    expect(box.enqueue(input).debit).toMatchObject({ id: first.debit.id, state: 'cancelled' });
    expect(box.list()).toHaveLength(1);
  });

  it.each([
    ['another card', { giftCardId: 'gift_card_2', amount: 12.5, reference: 'sale-42' }],
    ['another amount', { giftCardId: 'gift_card_1', amount: 12.51, reference: 'sale-42' }],
    ['another reference', { giftCardId: 'gift_card_1', amount: 12.5, reference: 'sale-43' }],
    ['no reference', { giftCardId: 'gift_card_1', amount: 12.5 }],
  ])('the same request id with %s is refused: REQUEST_ID_REUSED, nothing stored', (_, other) => {
    const box = outbox();
    const requestId = randomUUID();
    const input = { requestId, giftCardId: 'gift_card_1', amount: 12.5, reference: 'sale-42' };
    const first = box.enqueue(input).debit;
    let refusal: unknown;
    try {
      box.enqueue({ requestId, ...other });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(OutboxError);
    expect(refusal).toMatchObject({ code: 'REQUEST_ID_REUSED' });
    expect((refusal as Error).message).toContain(`debit ${first.id}`);
    expect(box.list()).toEqual([first]);
  });

  it('the kiosk shop changing between two sends does not make a retry another debit', () => {
    const box = outbox({}, { shopId: 'shop_lyon' });
    const input = { requestId: randomUUID(), giftCardId: 'gift_card_1', amount: 3 };
    const first = box.enqueue(input).debit;
    box.setShopId('shop_paris');
    expect(box.enqueue(input)).toMatchObject({ replayed: true, debit: { id: first.id } });
  });

  it('refuses a request id that is not a UUID v4, storing nothing', () => {
    const box = outbox();
    for (const requestId of ['', 'abc', '00000000-0000-1000-8000-000000000000']) {
      expect(() => box.enqueue({ requestId, giftCardId: 'gift_card_1', amount: 1 })).toThrow(
        expect.objectContaining({
          code: 'OUTBOX_INVALID_DEBIT',
          message: expect.stringContaining('requestId'),
        }),
      );
    }
    expect(box.list()).toEqual([]);
  });

  it('without a request id every enqueue is a new debit, each with a request id of its own', () => {
    const box = outbox();
    const a = box.enqueue({ giftCardId: 'gift_card_1', amount: 1 }).debit;
    const b = box.enqueue({ giftCardId: 'gift_card_1', amount: 1 }).debit;
    expect(a.id).not.toBe(b.id);
    expect(a.requestId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(b.requestId).not.toBe(a.requestId);
  });

  it('two connections on the same data directory (the kiosk and kioskctl) store it once', () => {
    const kiosk = outbox();
    const shell = outbox();
    const input = { requestId: randomUUID(), giftCardId: 'gift_card_1', amount: 7 };
    const results = [kiosk, shell, kiosk, shell].map((box) => box.enqueue(input));
    expect(results.map((result) => result.replayed)).toEqual([false, true, true, true]);
    expect(new Set(results.map((result) => result.debit.id)).size).toBe(1);
  });

  it('the unique index refuses a second row with the same request id whatever writes it', () => {
    const box = outbox();
    const requestId = randomUUID();
    const first = box.enqueue({ requestId, giftCardId: 'gift_card_1', amount: 7 }).debit;
    // The store's insert itself: the index answers "already there", nothing is written.
    const inserted = box.store.insert({
      idempotencyKey: randomUUID(),
      giftCardId: 'gift_card_1',
      requestBody: first.requestBody,
      amountCents: 700,
      reference: first.reference,
      policy: 'prefer_online',
      acceptedOffline: false,
      createdAt: clock.now(),
      requestId,
    });
    expect(inserted).toBeUndefined();
    expect(() =>
      box.db.connection
        .prepare(
          `INSERT INTO outbox_debits (idempotency_key, gift_card_id, request_body, amount_cents,
             reference, policy, accepted_offline, state, created_at, updated_at, next_attempt_at,
             request_id)
           VALUES (?, 'gift_card_1', '{}', 700, 'r', 'prefer_online', 0, 'pending', 0, 0, 0, ?)`,
        )
        .run(randomUUID(), requestId),
    ).toThrow(/UNIQUE constraint failed: outbox_debits.request_id/);
    expect(box.list()).toHaveLength(1);
  });

  it('migration 004 keeps the debits accepted before it, without a request id', () => {
    const before = openDatabase({
      dataDir: data.dir,
      schema: { ...kioskSchema, migrations: kioskSchema.migrations.slice(0, 3) },
    });
    before.connection
      .prepare(
        `INSERT INTO outbox_debits (idempotency_key, gift_card_id, request_body, amount_cents,
           reference, policy, accepted_offline, state, created_at, updated_at, next_attempt_at)
         VALUES (?, 'gift_card_1', '{"amount":2,"currency":"EUR","reference":"kiosk/1"}', 200,
           'kiosk/1', 'prefer_online', 1, 'pending', 1, 1, 1)`,
      )
      .run(randomUUID());
    before.close();

    const box = outbox();
    const [old] = box.list();
    expect(old).toMatchObject({ state: 'pending', amountCents: 200, requestId: null });
    const input = { requestId: randomUUID(), giftCardId: 'gift_card_1', amount: 2 };
    const fresh = box.enqueue(input).debit;
    expect(box.enqueue(input).debit.id).toBe(fresh.id);
    expect(box.list().map((debit) => debit.requestId)).toEqual([null, input.requestId]);
  });

  it('after the service applied it, the same request gets the receipt; the ledger has it once', async () => {
    const sb = await startTestSandbox();
    try {
      const box = outbox();
      const sender = new OutboxSender({
        outbox: box,
        gateway: createApiGateway(sb.client()),
        idlePollMs: 20,
      });
      const input = { requestId: randomUUID(), giftCardId: demoGiftCards.active, amount: 7.77 };
      const first = box.enqueue(input).debit;
      // The reply to the screen is lost; meanwhile the sender delivers the debit.
      const report = await sender.drain({ untilEmpty: true, timeoutMs: 10_000 });
      expect(report.result).toBe('empty');
      const again = box.enqueue(input);
      expect(again.replayed).toBe(true);
      expect(again.debit).toMatchObject({ id: first.id, state: 'applied' });
      const ledger = sb.control.ledger();
      expect(ledger).toHaveLength(1);
      expect(again.debit.reply).toMatchObject({
        kind: 'receipt',
        receipt: {
          balance: demoGiftCardBalances.active - 7.77,
          otherFields: expect.arrayContaining([{ name: 'amount', value: 7.77 }]),
        },
      });
      expect(ledger[0]).toMatchObject({ idempotencyKey: first.idempotencyKey, amount: 7.77 });
      await sender.stop();
    } finally {
      await sb.close();
    }
  });
});
