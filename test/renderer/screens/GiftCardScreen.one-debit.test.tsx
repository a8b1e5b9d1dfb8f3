import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { App } from '../../../renderer/App.tsx';
import type { DebitGiftCardRequest } from '../../../shared/ipc/gift-cards.ts';
import { asCredit, customer, debit, giftCard, settingsReply } from '../support/fixtures.ts';
import { ok } from '../support/fake-kiosk.ts';
import { renderKiosk, type RenderedKiosk } from '../support/render-kiosk.tsx';

/**
 * One sale, one debit, on the whole kiosk: while the reply about a debit is lost, every way back
 * to its card (typed, last cards, a scan, a customer's credit, after the idle reset, after a
 * reload) shows that debit's notice and no Debit form; once main answers and the outcome is on
 * screen, the next debit is another one.
 */

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  rendered?.stop();
  cleanup();
  vi.useRealTimers();
  window.sessionStorage.clear();
  window.localStorage.clear();
});

const helene = customer('customer_helene', 'Hélène', 'Lefèvre');

function kioskHandlers(state: { losing: boolean }) {
  return {
    getSettings: () => ok(settingsReply({ idleReturnSeconds: 30, scanMaxGapMs: 500 })),
    getGiftCard: () => ok(giftCard),
    listRecentCards: () =>
      ok({
        cards: [{ id: giftCard.id, maskedNumber: '**** 4821', readAt: '2026-03-14T10:00:00.000Z' }],
      }),
    searchCustomers: () => ok({ data: [helene], hasNextPage: false }),
    getCustomer: () => ok(helene),
    listCustomerCredits: () =>
      ok({
        data: [
          asCredit({
            id: 'credit_1',
            type: 'gift_card',
            label: 'Gift card **** 4821',
            giftCardId: giftCard.id,
            initialAmount: 150,
            remainingAmount: 114.5,
            currency: 'EUR',
            status: 'active',
            createdAt: '2025-01-31T10:00:00.000Z',
            expiresOn: null,
          }),
        ],
        hasNextPage: false,
      }),
    debitGiftCard: (request: DebitGiftCardRequest) => {
      // Main stores it and answers; the answer is lost on the way back (the bridge throws).
      if (state.losing) throw new Error('the loopback host went away');
      return ok({
        debit: debit({ id: 12, amount: request.amount, state: 'applied', newBalance: 94.5 }),
        delivery: 'send-now' as const,
        connectivity: 'online' as const,
        settled: true,
        replayed: true,
      });
    },
  };
}

const nav = (name: string) =>
  userEvent.setup().click(within(screen.getByRole('navigation')).getByRole('button', { name }));

/** The first debit's notice is on screen, and nothing to debit the card again with. */
function expectTheNotice(way: string) {
  const notice = screen.getByTestId('debit-may-be-stored');
  expect(notice.textContent, way).toContain('The debit of €20.00 may already be stored.');
  expect(screen.queryByRole('form', { name: 'Debit the card' }), way).toBeNull();
  expect(screen.queryByRole('button', { name: /^Debit/u }), way).toBeNull();
}

async function nextCard() {
  await userEvent.setup().click(screen.getByRole('button', { name: 'Next card' }));
  expect(screen.queryByTestId('debit-may-be-stored')).toBeNull();
}

test('a lost reply: typed, last cards, a scan and a customer’s credit all lead back to that debit', async () => {
  const state = { losing: true };
  rendered = await renderKiosk(<App />, { handlers: kioskHandlers(state) });
  const user = userEvent.setup();
  await nav('Gift card');
  await user.type(screen.getByLabelText('Card number (type or scan)'), giftCard.id);
  await user.click(screen.getByRole('button', { name: 'Find card' }));
  await screen.findByTestId('gift-card');
  const keypad = screen.getByRole('group', { name: 'Numeric keypad' });
  for (const key of ['2', '0']) await user.click(within(keypad).getByRole('button', { name: key }));
  await user.click(screen.getByRole('button', { name: 'Debit €20.00' }));
  await screen.findByTestId('debit-may-be-stored');
  expectTheNotice('the screen that lost the reply');
  const [first] = rendered.kiosk.callsOf('debitGiftCard');

  await nextCard();
  // Another card's screen says which debit's outcome it has not shown, and opens it.
  const unshown = screen.getByTestId('unshown-debits');
  expect(unshown.textContent).toContain('Debits whose outcome is not shown yet');
  await user.click(within(unshown).getByRole('button', { name: '€20.00 on card **** 4821' }));
  expectTheNotice('the list of debits not shown');

  await nextCard();
  await user.type(screen.getByLabelText('Card number (type or scan)'), giftCard.id);
  await user.click(screen.getByRole('button', { name: 'Find card' }));
  await screen.findByTestId('gift-card');
  expectTheNotice('typed');

  await nextCard();
  await user.click(
    within(screen.getByTestId('recent-cards')).getByRole('button', { name: '**** 4821' }),
  );
  await screen.findByTestId('gift-card');
  expectTheNotice('last cards');

  await nextCard();
  await nav('Availability');
  // A scanner from another screen: a burst, then Enter; the card opens on the gift-card screen.
  await user.keyboard(`${giftCard.id}{Enter}`);
  await screen.findByTestId('gift-card');
  expectTheNotice('scanned');

  await nextCard();
  await nav('Customers');
  await user.type(screen.getByLabelText('E-mail address (exact)'), 'helene@example.com');
  await user.click(screen.getByRole('button', { name: 'Search' }));
  const credits = await screen.findByTestId('history-credits');
  await user.click(
    await within(credits).findByRole('button', { name: 'Use this card: Gift card **** 4821' }),
  );
  await screen.findByTestId('gift-card');
  expectTheNotice('a customer’s credit');

  // Every question to main was about that one debit.
  const sent = rendered.kiosk.callsOf('debitGiftCard');
  expect(sent.length).toBeGreaterThan(1);
  for (const request of sent) expect(request).toEqual(first);

  // Main answers at last: the outcome on screen, and only then a new debit, under another id.
  state.losing = false;
  await user.click(screen.getByRole('button', { name: 'Check this debit now' }));
  const outcome = await screen.findByTestId('debit-outcome');
  expect(outcome.dataset['outcome']).toBe('applied');
  expect(screen.getByTestId('debit-replayed')).toBeTruthy();
  expect(screen.queryByTestId('unshown-debits')).toBeNull();
  await user.click(
    within(screen.getByRole('group', { name: 'Numeric keypad' })).getByRole('button', {
      name: '5',
    }),
  );
  await user.click(screen.getByRole('button', { name: 'Debit €5.00' }));
  await vi.waitFor(() => expect(rendered?.kiosk.callsOf('debitGiftCard').at(-1)?.amount).toBe(5));
  expect(rendered.kiosk.callsOf('debitGiftCard').at(-1)?.requestId).not.toBe(first?.requestId);
  expect(window.localStorage.length).toBe(0);
});

test('the idle reset and a reload keep that debit: its card still leads back to its notice', async () => {
  const state = { losing: true };
  rendered = await renderKiosk(<App />, { handlers: kioskHandlers(state) });
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
  await act(async () => {
    rendered!.stores.navigation.getState().go('giftCard');
    await rendered!.stores.giftCard.getState().openCard(giftCard.id);
    rendered!.stores.giftCard.getState().setAmount('20');
    await rendered!.stores.giftCard.getState().submitDebit();
  });
  expectTheNotice('the screen that lost the reply');
  const [first] = rendered.kiosk.callsOf('debitGiftCard');

  // Nobody touches the kiosk: the countdown, then the start screen.
  await act(() => vi.advanceTimersByTimeAsync(31_000));
  expect(rendered.stores.navigation.getState().screen).toBe('availability');
  vi.useRealTimers();
  await act(async () => {
    rendered!.stores.navigation.getState().go('giftCard');
    await rendered!.stores.giftCard.getState().openCard(giftCard.id);
  });
  expectTheNotice('after the idle reset');

  // The page reloads (new stores, the same kiosk storage): the same debit, asked about again.
  rendered.stop();
  cleanup();
  rendered = await renderKiosk(<App />, { handlers: kioskHandlers(state) });
  await act(async () => {
    rendered!.stores.navigation.getState().go('giftCard');
    await rendered!.stores.giftCard.getState().openCard(giftCard.id);
  });
  expectTheNotice('after a reload');
  const sent = rendered.kiosk.callsOf('debitGiftCard');
  expect(sent.length).toBeGreaterThan(0);
  for (const request of sent) expect(request).toEqual(first);
});
