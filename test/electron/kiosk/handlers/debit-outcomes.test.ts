import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { MessageName, RequestOf } from '../../../../shared/ipc/index.ts';
import { usagesVerified } from '../../../../electron/outbox/index.ts';
import { demoGiftCards } from '../../../../sandbox/data/demo.ts';
import { type KioskFixture, replyTo, send, startKioskFixture } from '../support.ts';

/**
 * A debit held as "outcome unknown", as the screens reach it through the router: its state and
 * hold in the lists, what the kiosk knows of it (keys, times, the balance before and now read
 * from the service), and staff's word on it, with who and when.
 */

let fixture: KioskFixture;
beforeAll(async () => {
  // A failed attempt waits a minute: nothing is resent before the service's clock moves.
  fixture = await startKioskFixture({
    services: { outboxRetry: { backoff: { baseMs: 60_000, capMs: 60_000 } } },
  });
  fixture.sandbox.control!.setEmptyUsages(true);
  fixture.services.parts.sender.start();
}, 60_000);
afterAll(() => fixture?.close());

const call = <N extends MessageName>(name: N, request: RequestOf<N>) =>
  replyTo(fixture, name, request);

it('a reply lost, the key forgotten, usages that prove nothing: held and shown; staff record the outcome', async () => {
  const control = fixture.sandbox.control!;
  const card = await call('getGiftCard', { giftCardId: demoGiftCards.active });
  control.addFault({ kind: 'commit-then-reset', route: 'debitGiftCard', count: 1 });
  const { debit } = await call('debitGiftCard', {
    requestId: crypto.randomUUID(),
    giftCardId: demoGiftCards.active,
    amount: 6,
    reference: 'sale-77',
    policy: 'prefer_online',
  });
  await vi.waitFor(async () => {
    const { debits } = await call('listDebits', { view: 'open' });
    // Back to pending: lifted while the attempt is still under way, the backoff would be set after.
    expect(debits).toContainEqual(
      expect.objectContaining({ id: debit.id, attempts: 1, state: 'pending' }),
    );
  });
  // The service's clock a day and an hour later: it forgot the key. Back online, the debit is due.
  control.advanceClock(25 * 3_600_000);
  fixture.services.parts.sender.liftBackoff();

  await vi.waitFor(
    async () => {
      const { debits } = await call('listDebits', { view: 'recent' });
      const row = debits.find((entry) => entry.id === debit.id);
      expect(row?.outcomeUnknown, JSON.stringify(row)).toBeTruthy();
    },
    { timeout: 15_000 },
  );
  const { debits } = await call('listDebits', { view: 'open' });
  const held = debits.find((entry) => entry.id === debit.id)!;
  expect(held).toMatchObject({
    state: 'pending',
    heldReason: { code: 'DEBIT_OUTCOME_UNKNOWN' },
    outcomeUnknown: {
      reason: 'USAGES_UNVERIFIED',
      balanceBefore: { amount: card.source === 'service' ? card.balance : null },
    },
  });
  expect((await call('getOutboxSummary', {})).outcomeUnknown).toBe(1);

  const evidence = await call('getDebitEvidence', { debitId: debit.id });
  expect(evidence).toMatchObject({
    debit: { id: debit.id, maskedNumber: card.maskedNumber },
    keys: [{ key: expect.stringMatching(/^[0-9a-f-]{8}$/), replacedAt: null }],
    firstAttemptAt: expect.any(String),
    balanceNow: { amount: 114.5 - 6 },
  });

  const resolved = await call('resolveUnknownDebit', {
    debitId: debit.id,
    outcome: 'applied',
    by: 'MD',
  });
  expect(resolved).toMatchObject({
    state: 'applied',
    settledBy: 'staff',
    staffOutcome: { outcome: 'applied', by: 'MD' },
    outcomeUnknown: null,
  });
  expect(control.ledger().filter((entry) => entry.reference === debit.reference)).toHaveLength(1);
}, 30_000);

it('staff cannot record an outcome for a debit that is not held', async () => {
  const { debit } = await call('debitGiftCard', {
    requestId: crypto.randomUUID(),
    giftCardId: demoGiftCards.lowBalance,
    amount: 1,
    policy: 'prefer_online',
    waitMs: 10_000,
  });
  const refused = await send(fixture, 'resolveUnknownDebit', {
    debitId: debit.id,
    outcome: 'not_applied',
    by: 'MD',
  });
  expect(refused).toMatchObject({ ok: false, error: { code: 'OUTBOX_INVALID_STATE' } });
});

it('Setup\'s "Check the service" records its verdict on the usages: empty lists prove nothing, filled ones do', async () => {
  const { outbox } = fixture.services.parts;
  const control = fixture.sandbox.control!;
  control.setEmptyUsages(true);
  const empty = await call('checkContract', {});
  expect(empty.notChecked).toContain('giftCardUsage.reference');
  expect(empty.missingNeeded).not.toContain('giftCardUsage.reference');
  expect(usagesVerified(outbox.store, outbox.profile)).toBe(false);
  control.setEmptyUsages(false);
  expect((await call('checkContract', {})).ok).toBe(true);
  expect(usagesVerified(outbox.store, outbox.profile)).toBe(true);
  control.setEmptyUsages(true);
});
