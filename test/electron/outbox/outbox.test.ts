import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GiftCardDebit } from '../../../shared/api/gift-cards.ts';
import { OutboxError } from '../../../electron/outbox/errors.ts';
import type { ConnectivityStatus, OutboxEvent } from '../../../electron/outbox/events.ts';
import { OfflineLimitExceeded, type OfflineLimits } from '../../../electron/outbox/limits.ts';
import {
  MAX_CALLER_REFERENCE_LENGTH,
  Outbox,
  referenceFor,
} from '../../../electron/outbox/outbox.ts';
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
    box.on((event) => events.push(event));
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
    connectivity = 'online';
    expect(box.enqueue({ giftCardId: 'gift_card_1', amount: 50.01 }).debit.state).toBe('pending');
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
    box.on((event) => events.push(event));
    const a = box.enqueue({ giftCardId: 'gift_card_1', amount: 3 }).debit;
    const b = box.enqueue({ giftCardId: 'gift_card_1', amount: 4 }).debit;
    // As the sender would leave it after an attempt without an answer.
    box.db.connection.prepare(`UPDATE outbox_debits SET attempts = 1 WHERE id = ?`).run(b.id);

    const cancelled = box.cancel(a.id);
    expect(cancelled).toMatchObject({ state: 'cancelled', resolvedBy: 'staff' });
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
      pendingCount: 0,
      pendingAmount: 0,
      oldestPendingAgeMs: null,
      sendingCount: 0,
      needingAttention: { refused: 0, failed: 0, expired: 0, total: 0 },
    });
    box.enqueue({ giftCardId: 'gift_card_1', amount: 0.1 });
    box.enqueue({ giftCardId: 'gift_card_2', amount: 0.2 });
    const refused = box.enqueue({ giftCardId: 'gift_card_3', amount: 5 }).debit;
    box.db.connection
      .prepare(`UPDATE outbox_debits SET state = 'refused' WHERE id = ?`)
      .run(refused.id);
    clock.advance(60_000);
    const summary = box.summary();
    expect(summary.pendingCount).toBe(2);
    expect(summary.pendingAmount).toBe(0.3);
    expect(summary.oldestPendingAgeMs).toBeGreaterThanOrEqual(60_000);
    expect(summary.needingAttention).toEqual({ refused: 1, failed: 0, expired: 0, total: 1 });
    box.acknowledge(refused.id);
    expect(box.summary().needingAttention.total).toBe(0);
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
