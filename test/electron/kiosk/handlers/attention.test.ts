import { afterAll, beforeAll, expect, it } from 'vitest';
import type { MessageName, RequestOf } from '../../../../shared/ipc/index.ts';
import { localDateOf } from '../../../../electron/outbox/index.ts';
import { demoGiftCards } from '../../../../sandbox/data/demo.ts';
import { KIOSK_PAGE, type KioskFixture, replyTo, startKioskFixture } from '../support.ts';

/** A debit refused after the fact, as the screens reach it: through the router to the outbox. */

let fixture: KioskFixture;
beforeAll(async () => {
  fixture = await startKioskFixture();
  fixture.services.parts.sender.start();
}, 60_000);
afterAll(() => fixture?.close());

const call = <N extends MessageName>(name: N, request: RequestOf<N>) =>
  replyTo(fixture, name, request);

it('a refused debit needs attention, with the masked number read, until collected another way', async () => {
  const card = await call('getGiftCard', { giftCardId: demoGiftCards.lowBalance });
  expect(card.maskedNumber).toMatch(/\d{4}$/);
  // Another till takes 4.00 from it after this kiosk read 4.50: within what the kiosk knows, the
  // service refuses it.
  await fixture.services.parts.client.debitGiftCard({
    params: { giftCardId: demoGiftCards.lowBalance },
    headers: { 'Idempotency-Key': crypto.randomUUID() },
    body: { amount: 4, currency: 'EUR', reference: 'other-till' },
  });
  // Taken without waiting for the service (as offline): its refusal comes after the customer left.
  const taken = await call('debitGiftCard', {
    requestId: crypto.randomUUID(),
    giftCardId: demoGiftCards.lowBalance,
    amount: 4.5,
    reference: 'sale-after',
    policy: 'prefer_online',
    waitMs: 0,
  });
  const { debit: refused } = await fixture.services.parts.outbox.awaitAnswer(
    taken.debit.id,
    10_000,
  );
  expect(refused.state).toBe('refused');
  const { debit } = taken;

  const { debits } = await call('listDebits', { view: 'attention' });
  expect(debits).toEqual([
    expect.objectContaining({
      id: debit.id,
      needsAttention: true,
      maskedNumber: card.maskedNumber,
    }),
  ]);
  // The count the status bar shows is the list the alert shows.
  expect((await call('getOutboxSummary', {})).attention).toEqual({
    refused: 1,
    failed: 0,
    expired: 0,
    total: 1,
  });

  const resolved = await call('resolveDebit', {
    debitId: debit.id,
    resolution: { kind: 'collected_other_way', method: 'cash' },
  });
  expect(resolved).toMatchObject({
    needsAttention: false,
    staffResolution: { kind: 'collected_other_way', method: 'cash' },
  });
  expect((await call('listDebits', { view: 'attention' })).debits).toEqual([]);
  expect((await call('getOutboxSummary', {})).attention.total).toBe(0);

  const report = await call('getDayReport', { date: localDateOf(Date.parse(debit.createdAt)) });
  expect(report.debits).toContainEqual(
    expect.objectContaining({
      id: debit.id,
      state: 'refused',
      staffResolution: resolved.staffResolution,
    }),
  );
});

it('a resolution for a debit that was applied is refused with a stable code', async () => {
  const { debit } = await call('debitGiftCard', {
    requestId: crypto.randomUUID(),
    giftCardId: demoGiftCards.active,
    amount: 1,
    policy: 'prefer_online',
    waitMs: 10_000,
  });
  expect(debit.state).toBe('applied');
  expect(
    await fixture.router.handle(
      'kiosk:resolveDebit',
      { debitId: debit.id, resolution: { kind: 'could_not_collect' } },
      KIOSK_PAGE,
    ),
  ).toMatchObject({ ok: false, error: { code: 'OUTBOX_INVALID_STATE' } });
});

it('refused within the counter’s wait, in front of the customer: an outcome on screen, not an alert', async () => {
  await call('getGiftCard', { giftCardId: demoGiftCards.lowBalance });
  // Another till takes what is left after this kiosk read it: the service says no, at once.
  await fixture.services.parts.client.debitGiftCard({
    params: { giftCardId: demoGiftCards.lowBalance },
    headers: { 'Idempotency-Key': crypto.randomUUID() },
    body: { amount: 0.5, currency: 'EUR', reference: 'other-till-2' },
  });
  const { debit } = await call('debitGiftCard', {
    requestId: crypto.randomUUID(),
    giftCardId: demoGiftCards.lowBalance,
    amount: 0.5,
    reference: 'sale-on-the-spot',
    policy: 'prefer_online',
    waitMs: 10_000,
  });
  expect(debit.state).toBe('refused');
  expect((await call('listDebits', { view: 'attention' })).debits).toEqual([]);
  expect((await call('getOutboxSummary', {})).attention.total).toBe(0);
});
