import { expect, it } from 'vitest';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import type { OutboxDebit } from '../../../electron/outbox/index.ts';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { OutboxSender } from '../../../electron/outbox/sender.ts';
import { useSandboxBed } from './sandbox-support.ts';

/**
 * An answer's settled row is built from the marked row and the answer in hand, not read back
 * from the database (`OutboxStore.settleAttempt`): what the `state-changed` event carries must
 * still be exactly the row a later read returns, reply and balance included, for each outcome.
 */

const bed = useSandboxBed();

it('the settled debit of each state-changed event is the stored row: applied, refused, failed', async () => {
  const outbox = new Outbox({ db: bed.data.open(), connectivity: () => 'online' });
  const applied = outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 1.25 }).debit;
  // 4.50 EUR on the card: 20 is refused (409, insufficient balance).
  const refused = outbox.enqueue({ giftCardId: demoGiftCards.lowBalance, amount: 20 }).debit;
  // No such card: 404, failed.
  const failed = outbox.enqueue({
    giftCardId: 'gift_card_00000000-0000-4000-8000-000000000000',
    amount: 1,
  }).debit;
  const settled = new Map<number, OutboxDebit>();
  outbox.events.on('change', (event) => {
    if (event.type === 'state-changed' && event.from === 'sending')
      settled.set(event.debit.id, event.debit);
  });
  const sender = bed.stopLater(
    new OutboxSender({
      outbox,
      gateway: bed.sb.gateway(bed.sb.client()),
      concurrency: 3,
      idlePollMs: 20,
    }),
  );
  const report = await sender.drain({ untilEmpty: true, timeoutMs: 30_000 });

  expect(report).toMatchObject({ result: 'empty', applied: 1, refused: 1, failed: 1 });
  expect(settled.get(applied.id)).toMatchObject({ state: 'applied', lastErrorCode: null });
  expect(settled.get(applied.id)?.reply?.kind).toBe('receipt');
  expect(settled.get(applied.id)?.newBalance).not.toBeNull();
  expect(settled.get(refused.id)).toMatchObject({
    state: 'refused',
    lastErrorCode: 'INSUFFICIENT_BALANCE',
  });
  expect(settled.get(failed.id)).toMatchObject({ state: 'failed', settledBy: 'service' });
  for (const debit of [applied, refused, failed]) {
    expect(settled.get(debit.id)).toEqual(outbox.get(debit.id));
  }
});
