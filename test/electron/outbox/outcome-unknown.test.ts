import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkContract } from '../../../electron/contract/index.ts';
import type { OutboxEvent } from '../../../electron/outbox/events.ts';
import {
  heldReasonOf,
  type OutboxDebit,
  recordUsageCheck,
  resolveUnknownOutcome,
} from '../../../electron/outbox/index.ts';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { OutboxSender } from '../../../electron/outbox/sender.ts';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import { shopIds } from '../../../sandbox/data/referentials.ts';
import { defaultProfile, IntegrationProfile } from '../../../shared/profile/index.ts';
import { startTestSandbox, type TestSandbox } from './sandbox-support.ts';
import { RecordingLogger, ShiftedClock, tempDataDir } from './support.ts';

/**
 * No evidence is not proof. A debit whose earlier attempt may have reached the service counts as
 * "not applied" only on positive evidence: the service's definitive answer to that key, or the
 * card's usages read where the contract check verified this service fills them. Without it the
 * debit is held as "outcome unknown" for a person: never resent under a new key, never expired as
 * "never applied", never resent under the same key past the service's key window. The service
 * here is the real sandbox with its usage lists always empty, as many real services answer; its
 * ledger is the truth.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const withoutShop = IntegrationProfile.parse({
  ...defaultProfile,
  name: 'the same service, the shop left out of the body',
  giftCardDebit: { body: { ...defaultProfile.giftCardDebit.body, shopId: null } },
});

let sb: TestSandbox;
let data: ReturnType<typeof tempDataDir>;
let clock: ShiftedClock;
let logger: RecordingLogger;
const senders: OutboxSender[] = [];

beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.close();
});
beforeEach(() => {
  sb.control.reset();
  sb.control.setEmptyUsages(true);
  data = tempDataDir();
  clock = new ShiftedClock();
  logger = new RecordingLogger();
});
afterEach(async () => {
  await Promise.all(senders.splice(0).map((sender) => sender.stop()));
  sb.control.clearFaults();
  sb.control.setEmptyUsages(false);
  data.cleanup();
});

interface Kiosk {
  readonly outbox: Outbox;
  readonly sender: OutboxSender;
  readonly events: OutboxEvent[];
}

/**
 * A kiosk process on the shared data directory: its own client, so its own reading of the
 * service's clock. A failed attempt waits a minute, so nothing is resent before the test moves
 * the clocks; a held debit has its usages read again every 200 ms.
 */
function kiosk(): Kiosk {
  const outbox = new Outbox({
    db: data.open(),
    clock,
    connectivity: () => 'online',
    shopId: shopIds.paris,
  });
  const events: OutboxEvent[] = [];
  outbox.events.on('change', (event) => events.push(event));
  const sender = new OutboxSender({
    outbox,
    gateway: sb.gateway(sb.client({ clock, logger }), () => outbox.profile),
    logger,
    random: () => 0.99,
    leaseTtlMs: 3_000,
    idlePollMs: 20,
    unknownRecheckMs: 200,
    retry: { backoff: { baseMs: MINUTE, capMs: MINUTE } },
  });
  senders.push(sender);
  return { outbox, sender, events };
}

/** The contract check as setup runs it, its verdict on the usages kept in the database. */
async function contractCheck(outbox: Outbox): Promise<boolean> {
  const report = await checkContract(sb.client(), outbox.profile);
  return recordUsageCheck(outbox.store, outbox.profile, report, Date.now()).verified;
}

/**
 * One attempt whose reply is lost (`commit-then-reset`: the service applied it; `reset`: it never
 * arrived), then the sender stops: the debit waits, pending, its key possibly applied. The
 * failure closes that sender's gate for a minute: the next lost reply needs another kiosk.
 */
async function lostReply(
  k: Kiosk,
  card: string,
  amount: number,
  kind: 'commit-then-reset' | 'reset',
): Promise<OutboxDebit> {
  sb.control.addFault({ kind, route: 'debitGiftCard', count: 1 });
  const { debit } = k.outbox.enqueue({ giftCardId: card, amount });
  k.sender.start();
  await vi.waitFor(() =>
    expect(k.outbox.get(debit.id)).toMatchObject({ state: 'pending', attempts: 1 }),
  );
  await k.sender.stop();
  const row = k.outbox.get(debit.id);
  expect(row.mayHaveReachedAt).not.toBeNull();
  expect(row.keySentAt).not.toBeNull();
  return row;
}

async function held(k: Kiosk, debit: OutboxDebit): Promise<OutboxDebit> {
  k.sender.start();
  await vi.waitFor(() => expect(k.outbox.get(debit.id).outcomeUnknown).not.toBeNull(), {
    timeout: 10_000,
  });
  return k.outbox.get(debit.id);
}

/** The service's ledger, entries per debit reference (one row, whichever key applied it). */
function ledgerByReference(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of sb.control.ledger())
    counts.set(entry.reference ?? '', (counts.get(entry.reference ?? '') ?? 0) + 1);
  return counts;
}

describe('the contract check decides whether the usages are evidence', () => {
  it('usages read on a card that has some: verified; the same service with empty lists: not', async () => {
    const k = kiosk();
    sb.control.setEmptyUsages(false);
    expect(await contractCheck(k.outbox)).toBe(true);
    sb.control.setEmptyUsages(true);
    // The latest check of a profile wins: this one withdraws the verdict.
    expect(await contractCheck(k.outbox)).toBe(false);
    // Another profile that reads the usages elsewhere has no verdict at all.
    sb.control.setEmptyUsages(false);
    expect(await contractCheck(k.outbox)).toBe(true);
    k.outbox.useProfile(
      IntegrationProfile.parse({
        ...defaultProfile,
        records: {
          ...defaultProfile.records,
          giftCardUsage: { ...defaultProfile.records.giftCardUsage, reference: 'memo' },
        },
      }),
    );
    const report = await checkContract(sb.client(), k.outbox.profile);
    expect(report.ok).toBe(false);
    expect(recordUsageCheck(k.outbox.store, k.outbox.profile, report, Date.now())).toMatchObject({
      verified: false,
    });
  });
});

describe('a service whose usage lists are always empty', () => {
  it('a lost reply, then the profile edited twice: no new key, one debit', async () => {
    const k = kiosk();
    expect(await contractCheck(k.outbox)).toBe(false);
    const a = await lostReply(k, demoGiftCards.active, 5, 'commit-then-reset');
    for (const [profile, withheld] of [
      [withoutShop, [a.id]],
      [defaultProfile, []],
      [withoutShop, [a.id]],
    ] as const) {
      k.outbox.useProfile(profile);
      expect(k.outbox.rebuildBodies()).toMatchObject({ rebuilt: 0, newKeys: 0, withheld });
    }
    clock.advance(2 * MINUTE); // its retry is due: inside the key window, same key, same body
    k.sender.start();
    const done = await k.outbox.waitForOutcome(a.id, 10_000);
    expect(done.debit).toMatchObject({ state: 'applied', idempotencyKey: a.idempotencyKey });
    expect(k.outbox.keyHistory(a.id)).toHaveLength(1);
    expect(ledgerByReference().get(a.reference)).toBe(1);
  });

  it('a lost reply, then 24 h without contact (the key forgotten): held as unknown, not resent', async () => {
    const k = kiosk();
    const a = await lostReply(k, demoGiftCards.active, 5, 'commit-then-reset');
    sb.control.advanceClock(25 * HOUR);
    clock.advance(25 * HOUR);
    const row = await held(kiosk(), a);
    expect(row).toMatchObject({
      state: 'pending',
      attempts: 1,
      outcomeUnknown: { reason: 'USAGES_UNVERIFIED' },
    });
    expect(heldReasonOf(row)).toMatchObject({ code: 'DEBIT_OUTCOME_UNKNOWN' });
    // What a person weighs: the card's balance read from the service now (evidence, not proof).
    expect(row.balanceNow).toMatchObject({ cents: 10_950 });
    expect(ledgerByReference().get(a.reference)).toBe(1);
    expect(logger.events('outbox.debit.outcome_unknown')).toHaveLength(1);
  });

  it('a lost reply, then the service clock 73 h ahead: held as unknown, never expired as "never applied"', async () => {
    const k = kiosk();
    const a = await lostReply(k, demoGiftCards.active, 3, 'commit-then-reset');
    // The service's clock moves 73 h, the kiosk's two minutes (its retry is due): the first
    // reply after it is a jump, trusted once the next one confirms it.
    sb.control.advanceClock(73 * HOUR);
    clock.advance(2 * MINUTE);
    const row = await held(k, a);
    expect(row).toMatchObject({
      state: 'pending',
      outcomeUnknown: { reason: 'USAGES_UNVERIFIED' },
    });
    await new Promise((resolve) => setTimeout(resolve, 500)); // several checks of the held row
    expect(k.outbox.get(a.id).state).toBe('pending');
    expect(k.outbox.summary()).toMatchObject({
      outcomeUnknown: 1,
      attention: { expired: 0 },
    });
    expect(ledgerByReference().get(a.reference)).toBe(1);
    expect(logger.events('api.service_clock.jump_confirmed').length).toBeGreaterThan(0);
  });

  it('the same debit with the usages verified: found in them, applied; absent, it expires or is resent', async () => {
    sb.control.setEmptyUsages(false);
    const k = kiosk();
    expect(await contractCheck(k.outbox)).toBe(true);
    const applied = await lostReply(k, demoGiftCards.active, 3, 'commit-then-reset');
    const never = await lostReply(kiosk(), demoGiftCards.lowBalance, 1, 'reset');
    sb.control.advanceClock(25 * HOUR);
    clock.advance(25 * HOUR);
    const next = kiosk();
    next.sender.start();
    const [a, b] = await Promise.all([
      next.outbox.waitForOutcome(applied.id, 10_000),
      next.outbox.waitForOutcome(never.id, 10_000),
    ]);
    expect(a.debit).toMatchObject({ state: 'applied', settledBy: 'reconciliation' });
    expect(b.debit).toMatchObject({ state: 'applied', settledBy: 'service', attempts: 2 });
    expect(next.outbox.get(never.id).notApplied).toMatchObject({ evidence: 'usages' });
    expect([...ledgerByReference().values()]).toEqual([1, 1]);
  });
});

describe('staff decide a debit of unknown outcome', () => {
  it('"applied": settled applied by staff, with who and when, nothing sent; "not applied, send again": sent once', async () => {
    const k = kiosk();
    const a = await lostReply(k, demoGiftCards.active, 4, 'commit-then-reset');
    const b = await lostReply(kiosk(), demoGiftCards.lowBalance, 2, 'reset');
    sb.control.advanceClock(25 * HOUR);
    clock.advance(25 * HOUR);
    const next = kiosk();
    await held(next, a);
    await held(next, b);

    const applied = resolveUnknownOutcome(next.outbox, a.id, { outcome: 'applied', by: 'MD' });
    expect(applied).toMatchObject({
      state: 'applied',
      settledBy: 'staff',
      staffOutcome: { outcome: 'applied', by: 'MD', at: expect.any(Number) },
    });
    // The same record again is harmless; another is refused.
    expect(resolveUnknownOutcome(next.outbox, a.id, { outcome: 'applied', by: 'MD' }).id).toBe(
      a.id,
    );
    expect(() =>
      resolveUnknownOutcome(next.outbox, a.id, { outcome: 'not_applied', by: 'JP' }),
    ).toThrow(expect.objectContaining({ code: 'OUTBOX_INVALID_STATE' }));

    resolveUnknownOutcome(next.outbox, b.id, { outcome: 'not_applied', by: 'JP' });
    next.sender.wake();
    const sent = await next.outbox.waitForOutcome(b.id, 10_000);
    expect(sent.debit).toMatchObject({
      state: 'applied',
      settledBy: 'service',
      notApplied: { evidence: 'staff' },
      staffOutcome: { outcome: 'not_applied', by: 'JP' },
    });
    expect([...ledgerByReference().entries()].sort()).toEqual(
      [
        [a.reference, 1],
        [b.reference, 1],
      ].sort(),
    );
    // A debit that is not held has no outcome to record.
    const fresh = next.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 1 }).debit;
    expect(() =>
      resolveUnknownOutcome(next.outbox, fresh.id, { outcome: 'applied', by: 'MD' }),
    ).toThrow(expect.objectContaining({ code: 'OUTBOX_INVALID_STATE' }));
  });
});

describe('keys and 409s', () => {
  it('a key sent is a recorded fact: after a 60-minute clock step and a profile change, a new key, never the old one with another body', async () => {
    const k = kiosk();
    // A 400 for the request's shape: a definitive answer to the key, which did go out.
    sb.control.addFault({ kind: 'invalid-request', route: 'debitGiftCard', count: 1 });
    const { debit } = k.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 6 });
    expect((await k.sender.drain({ untilEmpty: true, timeoutMs: 10_000 })).result).toBe('paused');
    const sent = k.outbox.get(debit.id);
    expect(sent.keySentAt).not.toBeNull();
    // Never sent: a row behind it on the same card.
    const behind = k.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 1 }).debit;
    expect(behind.keySentAt).toBeNull();

    clock.step(-60 * MINUTE);
    k.outbox.useProfile(withoutShop);
    k.sender.resume();
    const rebuilt = k.outbox.get(debit.id);
    expect(rebuilt.idempotencyKey).not.toBe(debit.idempotencyKey);
    expect(k.outbox.get(behind.id).idempotencyKey).toBe(behind.idempotencyKey);
    expect((await k.sender.drain({ untilEmpty: true, timeoutMs: 10_000 })).result).toBe('empty');
    expect(k.outbox.get(debit.id)).toMatchObject({ state: 'applied' });
    expect(k.outbox.get(behind.id)).toMatchObject({ state: 'applied' });
    expect(sb.control.ledger().map((entry) => entry.idempotencyKey)).toEqual([
      rebuilt.idempotencyKey,
      behind.idempotencyKey,
    ]);
  });

  it("a 409 for a key the service saw with another body is the kiosk's defect, never a refusal: held as unknown, logged", async () => {
    const k = kiosk();
    const a = await lostReply(k, demoGiftCards.active, 5, 'commit-then-reset');
    // The defect this guards against: the body changed under a key that had gone out (as when
    // "sent" was once guessed from clock times).
    k.outbox.db.connection
      .prepare(`UPDATE outbox_debits SET request_body = ? WHERE id = ?`)
      .run(JSON.stringify({ amount: 5, currency: 'EUR', reference: a.reference }), a.id);
    clock.advance(2 * MINUTE);
    const row = await held(k, a);
    expect(row).toMatchObject({ state: 'pending', outcomeUnknown: { reason: 'KEY_REUSED' } });
    expect(k.outbox.list({ state: 'refused' })).toEqual([]);
    expect(logger.events('outbox.sender.key_reused')).toEqual([
      expect.objectContaining({ level: 'error', fields: expect.objectContaining({ id: a.id }) }),
    ]);
    expect(ledgerByReference().get(a.reference)).toBe(1);

    // Staff know it was applied (the ledger, the balance): recorded, nothing sent.
    resolveUnknownOutcome(k.outbox, a.id, { outcome: 'applied', by: 'MD' });
    expect(ledgerByReference().get(a.reference)).toBe(1);
  });

  it('a business 409 to a key whose first body differs from the one sent now is held too: the kiosk cannot tell', async () => {
    const k = kiosk();
    // The first attempt never arrived; the body then changed under the key (the defect).
    const a = await lostReply(k, demoGiftCards.lowBalance, 4, 'reset');
    k.outbox.db.connection
      .prepare(`UPDATE outbox_debits SET request_body = ? WHERE id = ?`)
      .run(JSON.stringify({ amount: 40, currency: 'EUR', reference: a.reference }), a.id);
    clock.advance(2 * MINUTE);
    const row = await held(k, a);
    expect(row).toMatchObject({ state: 'pending', outcomeUnknown: { reason: 'KEY_REUSED' } });
    expect(sb.control.ledger()).toEqual([]);

    // Not applied, send again: under a new key, with the body the profile writes.
    resolveUnknownOutcome(k.outbox, a.id, { outcome: 'not_applied', by: 'JP' });
    k.sender.wake();
    const done = await k.outbox.waitForOutcome(a.id, 10_000);
    expect(done.debit).toMatchObject({ state: 'applied' });
    expect(done.debit.idempotencyKey).not.toBe(a.idempotencyKey);
    expect(sb.control.ledger()).toEqual([expect.objectContaining({ amount: 4 })]);
  });
});

it(
  'acceptance: usage lists always empty, replies lost after commit, the profile changed twice, the service clock +25 h then +73 h, keys forgotten after 24 h: at most one ledger entry per logical debit; every row the kiosk cannot prove is held as unknown',
  { timeout: 30_000 },
  async () => {
    const k = kiosk();
    expect(await contractCheck(k.outbox)).toBe(false);
    // Applied by the service, reply lost; never arrived, reply lost; and one that went through.
    const appliedLost = await lostReply(k, demoGiftCards.active, 5, 'commit-then-reset');
    const neverArrived = await lostReply(kiosk(), demoGiftCards.lowBalance, 2, 'reset');
    const third = kiosk();
    const refusedCard = third.outbox.enqueue({ giftCardId: demoGiftCards.expired, amount: 1 });
    third.sender.start();
    await third.outbox.waitForOutcome(refusedCard.debit.id, 10_000);
    await third.sender.stop();
    expect(k.outbox.get(refusedCard.debit.id)).toMatchObject({ state: 'refused' });

    // The profile changed twice (as `kioskctl outbox resume` would rebuild the bodies).
    for (const profile of [withoutShop, defaultProfile]) {
      k.outbox.useProfile(profile);
      const { newKeys, withheld } = k.outbox.rebuildBodies();
      expect(newKeys).toBe(0);
      if (profile === withoutShop)
        expect([...withheld].sort()).toEqual([appliedLost.id, neverArrived.id].sort());
    }

    // A day and an hour without contact: the service forgot both keys.
    sb.control.advanceClock(25 * HOUR);
    clock.advance(25 * HOUR);
    const after = kiosk();
    await held(after, appliedLost);
    await held(after, neverArrived);
    const later = after.outbox.enqueue({ giftCardId: demoGiftCards.inactive, amount: 1 }).debit;

    // Then the service's clock 73 h further, the kiosk's unmoved.
    sb.control.advanceClock(73 * HOUR);
    after.sender.wake();
    await after.outbox.waitForOutcome(later.id, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 600)); // held rows checked again

    const rows = after.outbox.list();
    const ledger = ledgerByReference();
    for (const row of rows) {
      expect(ledger.get(row.reference) ?? 0, `row ${row.id}`).toBeLessThanOrEqual(1);
      // None refused after being applied, none expired as "never applied".
      if (row.state === 'refused') expect(ledger.get(row.reference) ?? 0).toBe(0);
      expect(row.state).not.toBe('expired');
    }
    for (const debit of [appliedLost, neverArrived]) {
      expect(after.outbox.get(debit.id)).toMatchObject({
        state: 'pending',
        attempts: 1,
        idempotencyKey: debit.idempotencyKey,
        outcomeUnknown: { reason: 'USAGES_UNVERIFIED' },
      });
    }
    expect(ledger.get(appliedLost.reference)).toBe(1);
    expect(ledger.get(neverArrived.reference)).toBeUndefined();
    expect(after.outbox.summary().outcomeUnknown).toBe(2);
    expect((await after.sender.drain({ untilEmpty: true, timeoutMs: 5_000 })).result).toBe('held');
  },
);
