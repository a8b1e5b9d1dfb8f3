import { afterAll, beforeAll, expect, it } from 'vitest';
import type { MessageName, RequestOf } from '../../../../shared/ipc/index.ts';
import { demoGiftCards } from '../../../../sandbox/data/demo.ts';
import { type KioskFixture, replyTo, startKioskFixture } from '../support.ts';

/** The last cards read on this kiosk, through the router from the card cache (real SQLite). */

let fixture: KioskFixture;
beforeAll(async () => {
  fixture = await startKioskFixture();
}, 60_000);
afterAll(() => fixture?.close());

const call = <N extends MessageName>(name: N, request: RequestOf<N>) =>
  replyTo(fixture, name, request);

it('newest first, masked numbers only: no balance, status or holder leaves main', async () => {
  expect((await call('listRecentCards', {})).cards).toEqual([]);
  const active = await call('getGiftCard', {
    giftCardId: demoGiftCards.active,
    include: ['customer'],
  });
  const low = await call('getGiftCard', { giftCardId: demoGiftCards.lowBalance });

  const { cards } = await call('listRecentCards', {});
  expect(cards.map((card) => [card.id, card.maskedNumber])).toEqual([
    [demoGiftCards.lowBalance, low.maskedNumber],
    [demoGiftCards.active, active.maskedNumber],
  ]);
  for (const card of cards)
    expect(Object.keys(card).sort()).toEqual(['id', 'maskedNumber', 'readAt']);
  expect(cards[0]!.maskedNumber).toMatch(/\d{4}$/u);

  // Read again, the first card comes back to the top; the limit keeps the list short.
  await call('getGiftCard', { giftCardId: demoGiftCards.active });
  expect((await call('listRecentCards', { limit: 1 })).cards.map((card) => card.id)).toEqual([
    demoGiftCards.active,
  ]);
});
