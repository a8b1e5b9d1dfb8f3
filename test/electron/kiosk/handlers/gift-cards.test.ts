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
