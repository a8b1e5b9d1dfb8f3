import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test } from 'vitest';
import { GiftCardScreen } from '../../../renderer/screens/GiftCardScreen.tsx';
import { serviceCard } from '../support/fixtures.ts';
import { ok } from '../support/fake-kiosk.ts';
import { renderKiosk, type RenderedKiosk } from '../support/render-kiosk.tsx';

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  rendered?.stores.giftCard.getState().clear();
  rendered?.stop();
  cleanup();
});

test('the last cards used here, by masked number: one touch opens the card by its id', async () => {
  let cards = [
    { id: 'gift_card_2', maskedNumber: '**** 0002', readAt: '2026-03-14T09:59:00.000Z' },
  ];
  rendered = await renderKiosk(<GiftCardScreen />, {
    locale: 'fr',
    handlers: {
      listRecentCards: () => ok({ cards }),
      getGiftCard: () => {
        cards = [
          { id: 'gift_card_2', maskedNumber: '**** 0002', readAt: '2026-03-14T10:01:00.000Z' },
        ];
        return ok(serviceCard({ id: 'gift_card_2', maskedNumber: '**** 0002' }));
      },
    },
  });
  const list = await screen.findByTestId('recent-cards');
  expect(within(list).getByRole('heading').textContent).toBe(
    'Dernières cartes utilisées sur cette borne',
  );
  expect(
    within(list)
      .getAllByRole('button')
      .map((button) => button.textContent),
  ).toEqual(['**** 0002']);

  await userEvent.setup().click(within(list).getByRole('button', { name: '**** 0002' }));
  expect(rendered.kiosk.callsOf('getGiftCard')).toEqual([{ giftCardId: 'gift_card_2' }]);
  await screen.findByTestId('gift-card');
  // Read again after the look-up, so the list stays the kiosk's own order.
  await waitFor(() => expect(rendered?.kiosk.callsOf('listRecentCards')).toHaveLength(2));
});

test('no card read yet: no list at all', async () => {
  rendered = await renderKiosk(<GiftCardScreen />);
  await waitFor(() => expect(rendered?.kiosk.callsOf('listRecentCards')).toHaveLength(1));
  expect(screen.queryByTestId('recent-cards')).toBeNull();
});
