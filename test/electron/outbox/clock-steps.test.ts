import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import type { OutboxEvent } from '../../../electron/outbox/events.ts';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { OutboxSender } from '../../../electron/outbox/sender.ts';
import type { OutboxDebit } from '../../../electron/outbox/index.ts';
import { recordUsageVerdict, RecordingLogger, ShiftedClock, tempDataDir } from './support.ts';
import { startTestSandbox, type TestSandbox } from './sandbox-support.ts';

/**
 * The key-retention window and the maximum age judged on the service's clock, not the kiosk's.
 * A debit's reply is lost; a day passes (the sandbox, which keeps keys 24 h, forgets its key);
 * meanwhile the kiosk's wall clock was stepped (20 min or 2 days back, 73 h ahead). Each time the
 * service must hold exactly one ledger entry per logical debit, and nothing may expire: the
 * debits are a day old, the maximum age is 72 h.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const PAST_RETENTION = DAY + MINUTE;

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
  data = tempDataDir();
  clock = new ShiftedClock();
  logger = new RecordingLogger();
});
afterEach(async () => {
  await Promise.all(senders.splice(0).map((sender) => sender.stop()));
  data.cleanup();
});

interface Rig {
  readonly outbox: Outbox;
  readonly sender: OutboxSender;
  readonly events: OutboxEvent[];
}

/**
 * A kiosk process: its own client (and so its own reading of the service's clock). The contract
 * check verified the card's usages: "absent" from them is evidence (`outcome-unknown.test.ts`
 * has the service whose usages prove nothing).
 */
function kiosk(): Rig {
  const outbox = new Outbox({ db: data.open(), clock, connectivity: () => 'online' });
  recordUsageVerdict(outbox);
  const events: OutboxEvent[] = [];
  outbox.events.on('change', (event) => events.push(event));
  const sender = new OutboxSender({
    outbox,
    gateway: sb.gateway(sb.client({ clock, logger })),
    logger,
    random: () => 0.99,
    leaseTtlMs: 3_000,
    idlePollMs: 50,
    // A failed attempt waits a minute: nothing is resent before the clock moves.
    retry: { backoff: { baseMs: MINUTE, capMs: MINUTE } },
  });
  senders.push(sender);
  return { outbox, sender, events };
}

/**
 * Debit A loses its reply (`commit-then-reset`: the service applied it; `reset`: it never
 * arrived) and waits for its retry; debit B, accepted just after on the same card, waits behind
 * it, never attempted. Both are dated on the service's clock.
 */
async function lostReply(
  r: Rig,
  kind: 'commit-then-reset' | 'reset',
): Promise<{ a: OutboxDebit; b: OutboxDebit }> {
  sb.control.addFault({ kind, route: 'debitGiftCard', count: 1 });
  const a = r.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 3 }).debit;
  r.sender.start();
  await vi.waitFor(() =>
    expect(r.outbox.get(a.id)).toMatchObject({ state: 'pending', attempts: 1 }),
  );
  const b = r.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 2 }).debit;
  await vi.waitFor(() => {
    expect(r.outbox.store.serviceTimes(a.id)).toMatchObject({
      createdAt: expect.any(Number),
      reachedAt: expect.any(Number),
    });
    expect(r.outbox.store.serviceTimes(b.id)?.createdAt).toEqual(expect.any(Number));
  });
  expect(sb.control.ledger()).toHaveLength(kind === 'commit-then-reset' ? 1 : 0);
  return { a: r.outbox.get(a.id), b: r.outbox.get(b.id) };
}

/** A day and a minute pass on the service and the kiosk; then the kiosk's clock is stepped. */
function aDayPassesAndTheKioskClockSteps(stepMs: number): void {
  sb.control.advanceClock(PAST_RETENTION);
  clock.advance(PAST_RETENTION);
  clock.step(stepMs);
}

async function outcome(r: Rig, debit: OutboxDebit): Promise<OutboxDebit> {
  r.sender.start();
  const done = await r.outbox.waitForOutcome(debit.id, 15_000);
  expect(done.settled, `debit ${debit.id}: ${done.debit.state} ${done.debit.lastErrorCode}`).toBe(
    true,
  );
  return done.debit;
}

function expectOneLedgerEntryEach(...debits: OutboxDebit[]): void {
  const keys = sb.control.ledger().map((entry) => entry.idempotencyKey);
  expect(keys.toSorted()).toEqual(debits.map((debit) => debit.idempotencyKey).toSorted());
}

const steps = [
  ['20 min behind', -20 * MINUTE],
  ['2 days behind', -2 * DAY],
  ['73 h ahead', 73 * HOUR],
] as const;

describe.each(steps)(
  'the kiosk clock %s, the service past its 24 h key retention',
  (_label, stepMs) => {
    it('a debit applied whose reply was lost: found in the usages, never sent again; the one behind it sent, not expired', async () => {
      const r = kiosk();
      const { a, b } = await lostReply(r, 'commit-then-reset');
      aDayPassesAndTheKioskClockSteps(stepMs);

      expect(await outcome(r, a)).toMatchObject({
        state: 'applied',
        settledBy: 'reconciliation',
        attempts: 1,
      });
      expect(await outcome(r, b)).toMatchObject({ state: 'applied', settledBy: 'service' });
      expectOneLedgerEntryEach(a, b);
      expect(r.outbox.summary().attention.expired).toBe(0);

      // The step was seen against the monotonic clock, logged with its size and kept for status.
      const logged = logger.events('api.clock.step');
      expect(logged).toHaveLength(1);
      expect(logged[0]?.fields['stepMs']).toBeCloseTo(stepMs, -4);
      expect(r.sender.status.serviceClock.steps).toEqual([
        expect.objectContaining({ stepMs: logged[0]?.fields['stepMs'] }),
      ]);
    });

    it('a debit that never reached the service: absent from the usages, sent again with its key once', async () => {
      const r = kiosk();
      const { a, b } = await lostReply(r, 'reset');
      aDayPassesAndTheKioskClockSteps(stepMs);

      expect(await outcome(r, a)).toMatchObject({
        state: 'applied',
        settledBy: 'service',
        attempts: 2,
      });
      expect(await outcome(r, b)).toMatchObject({ state: 'applied', attempts: 1 });
      expectOneLedgerEntryEach(a, b);
    });

    it('across a restart (no reading of the service clock yet): the service is asked before anything is resent', async () => {
      const before = kiosk();
      const { a, b } = await lostReply(before, 'commit-then-reset');
      await before.sender.stop();
      aDayPassesAndTheKioskClockSteps(stepMs);

      const after = kiosk();
      expect(await outcome(after, a)).toMatchObject({
        state: 'applied',
        settledBy: 'reconciliation',
        attempts: 1,
      });
      expect(await outcome(after, b)).toMatchObject({ state: 'applied', settledBy: 'service' });
      expectOneLedgerEntryEach(a, b);
      expect(after.outbox.summary().attention.expired).toBe(0);
    });
  },
);

describe('the kiosk clock alone', () => {
  it('a 73 h jump with no time passing expires nothing and reconciles nothing: the debits go out', async () => {
    const r = kiosk();
    const { a, b } = await lostReply(r, 'reset');
    clock.step(73 * HOUR);

    expect(await outcome(r, a)).toMatchObject({ state: 'applied', attempts: 2 });
    expect(await outcome(r, b)).toMatchObject({ state: 'applied', attempts: 1 });
    expectOneLedgerEntryEach(a, b);
    // The service said a few seconds had passed: no reason to read the card's usages.
    expect(
      r.events.some((event) => event.type === 'state-changed' && event.reason === 'RECONCILED'),
    ).toBe(false);
  });

  it('two days back right after a failed attempt: the retry set before the step is due now, the card is not blocked', async () => {
    const r = kiosk();
    const { a, b } = await lostReply(r, 'reset');
    clock.step(-2 * DAY);

    // Without the horizon, A would wait two days for its retry time and B behind it.
    expect(await outcome(r, a)).toMatchObject({ state: 'applied', attempts: 2 });
    expect(await outcome(r, b)).toMatchObject({ state: 'applied' });
    expectOneLedgerEntryEach(a, b);
  });
});

describe('the maximum age on the service clock', () => {
  it('a debit older than the maximum age on the service expires, whatever the kiosk clock says', async () => {
    const r = kiosk();
    const { a, b } = await lostReply(r, 'reset');
    // Three days and an hour pass; the kiosk clock was meanwhile set back two days.
    sb.control.advanceClock(3 * DAY + HOUR);
    clock.advance(3 * DAY + HOUR);
    clock.step(-2 * DAY);

    expect(await outcome(r, b)).toMatchObject({ state: 'expired', attempts: 0 });
    // A may have reached the service: the usages decide, and it is absent.
    expect(await outcome(r, a)).toMatchObject({ state: 'expired', attempts: 1 });
    expect(sb.control.ledger()).toEqual([]);
  });
});
