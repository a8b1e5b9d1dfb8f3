import { afterAll, beforeAll, expect, it } from 'vitest';
import type { IpcResult, ReplyOf, RequestOf } from '../../../../shared/ipc/index.ts';
import { demoGiftCards } from '../../../../sandbox/data/demo.ts';
import { KIOSK_PAGE, type KioskFixture, startKioskFixture } from '../support.ts';

/**
 * The debit message as the renderer sends it, through the router to the real outbox and the
 * sandbox: a confirmation sent again after its reply was lost is the same debit.
 */

let fixture: KioskFixture;
beforeAll(async () => {
  fixture = await startKioskFixture();
  fixture.services.parts.sender.start();
}, 60_000);
afterAll(() => fixture?.close());

const debit = async (request: RequestOf<'debitGiftCard'>) =>
  (await fixture.router.handle('kiosk:debitGiftCard', request, KIOSK_PAGE)) as IpcResult<
    ReplyOf<'debitGiftCard'>
  >;

it('the same request id again: the debit already applied, its receipt, one ledger entry', async () => {
  const request = {
    requestId: crypto.randomUUID(),
    giftCardId: demoGiftCards.active,
    amount: 7.77,
    reference: 'till-3',
    policy: 'prefer_online',
    waitMs: 10_000,
  } as const;
  const first = await debit(request);
  const again = await debit(request);
  if (!first.ok || !again.ok) throw new Error(JSON.stringify([first, again]));
  expect(first.value).toMatchObject({
    replayed: false,
    settled: true,
    debit: { state: 'applied' },
  });
  expect(again.value).toMatchObject({ replayed: true, settled: true });
  expect(again.value.debit).toEqual(first.value.debit);
  expect(again.value.debit.reply?.kind).toBe('receipt');
  const ledger = fixture.sandbox.control!.ledger();
  expect(ledger.filter((entry) => entry.reference?.startsWith('till-3/'))).toHaveLength(1);
});

it('refuses a debit without a request id, or the same id for another amount', async () => {
  const request = {
    requestId: crypto.randomUUID(),
    giftCardId: demoGiftCards.active,
    amount: 1,
    policy: 'prefer_online',
  } as const;
  const { requestId: _, ...withoutId } = request;
  expect(await fixture.router.handle('kiosk:debitGiftCard', withoutId, KIOSK_PAGE)).toMatchObject({
    ok: false,
    error: { code: 'IPC_INVALID_REQUEST' },
  });
  expect(await debit(request)).toMatchObject({ ok: true, value: { replayed: false } });
  expect(await debit({ ...request, amount: 2 })).toMatchObject({
    ok: false,
    error: { code: 'REQUEST_ID_REUSED' },
  });
});

it('online, a card read at 4.50: a 20.00 debit is refused at once, with both figures, and never reaches the service', async () => {
  const card = await fixture.router.handle(
    'kiosk:getGiftCard',
    { giftCardId: demoGiftCards.lowBalance },
    KIOSK_PAGE,
  );
  expect(card).toMatchObject({ ok: true, value: { source: 'service', balance: 4.5 } });
  // The kiosk believes it is online: before this change the card was checked offline only.
  expect(fixture.services.parts.client.connectivity.state).toBe('online');

  const refused = await debit({
    requestId: crypto.randomUUID(),
    giftCardId: demoGiftCards.lowBalance,
    amount: 20,
    policy: 'prefer_online',
    waitMs: 10_000,
  });
  expect(refused).toMatchObject({
    ok: false,
    error: {
      code: 'OUTBOX_OVER_KNOWN_BALANCE',
      details: { refusal: { knownBalance: 4.5, amount: 20, available: 4.5, pending: 0 } },
    },
  });
  if (refused.ok) throw new Error('accepted');
  // How to read the card again is part of the refusal.
  expect(refused.error.message).toMatch(/look the card up again/);
  await fixture.services.parts.sender.drain({ untilEmpty: true, timeoutMs: 2_000 });
  expect(fixture.sandbox.control!.ledger(demoGiftCards.lowBalance)).toEqual([]);
  expect(
    fixture.services.parts.outbox
      .list()
      .filter((row) => row.giftCardId === demoGiftCards.lowBalance),
  ).toEqual([]);
});
