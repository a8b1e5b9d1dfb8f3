import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test } from 'vitest';
import type { CachedGiftCard } from '../../../shared/ipc/gift-cards.ts';
import { GiftCardScreen } from '../../../renderer/screens/GiftCardScreen.tsx';
import { debit, giftCard, serviceCard } from '../support/fixtures.ts';
import { fail, ok } from '../support/fake-kiosk.ts';
import { renderKiosk, type RenderedKiosk } from '../support/render-kiosk.tsx';

/** Offline look-ups and a card's state: what staff see before they confirm a debit. */

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  rendered?.stores.giftCard.getState().clear();
  rendered?.stop();
  cleanup();
  window.sessionStorage.clear();
  window.localStorage.clear();
});

const cached = (overrides: Partial<CachedGiftCard> = {}): CachedGiftCard => ({
  source: 'cache',
  id: giftCard.id,
  maskedNumber: '**** 9088',
  status: 'active',
  balance: 4.5,
  expiresOn: null,
  asOf: '2026-11-23T09:15:00.000Z',
  debitable: true,
  ...overrides,
});

async function findCard(keys: string[] = []) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Card number (type or scan)'), giftCard.id);
  await user.click(screen.getByRole('button', { name: 'Find card' }));
  await screen.findByTestId('gift-card');
  const keypad = screen.getByRole('group', { name: 'Numeric keypad' });
  for (const key of keys) await user.click(within(keypad).getByRole('button', { name: key }));
  return user;
}

test('offline, a card read earlier opens with its balance as of that read', async () => {
  rendered = await renderKiosk(<GiftCardScreen />, {
    handlers: { getGiftCard: () => ok(cached()) },
  });
  await findCard(['4']);
  expect(screen.getByTestId('gift-card-balance').textContent).toBe('€4.50');
  expect(screen.getByTestId('gift-card-as-of').textContent).toMatch(
    /^The service cannot be reached: balance as of .*2026/,
  );
  expect(screen.queryByTestId('gift-card-unknown-risk')).toBeNull();
  expect(screen.getByRole('button', { name: 'Debit €4.00' })).toHaveProperty('disabled', false);
});

test('offline, a card never read is shown as a risk before staff confirm', async () => {
  rendered = await renderKiosk(<GiftCardScreen />, {
    handlers: {
      getGiftCard: () =>
        ok(cached({ maskedNumber: null, status: null, balance: null, asOf: null })),
    },
  });
  await findCard(['1', '0']);
  expect(within(screen.getByTestId('gift-card')).getByRole('heading').textContent).toBe(
    'A card never read on this kiosk',
  );
  expect(screen.getByTestId('gift-card-unknown-risk').textContent).toContain('store’s risk');
  expect(screen.getByTestId('gift-card-balance').textContent).toBe('unknown');
  expect(screen.getByRole('button', { name: 'Debit €10.00' })).toHaveProperty('disabled', false);
});

test('a debit over the balance read is not offered, with the balance known', async () => {
  rendered = await renderKiosk(<GiftCardScreen />, {
    handlers: { getGiftCard: () => ok(cached()) },
  });
  await findCard(['2', '0']);
  const debit = screen.getByRole('button', { name: 'Debit €20.00' });
  expect(debit).toHaveProperty('disabled', true);
  const reason = screen.getByTestId('debit-over-balance');
  expect(reason.textContent).toBe('More than the card’s known balance (€4.50): not offered.');
  expect(debit.getAttribute('aria-describedby')).toBe(reason.id);
  expect(rendered.kiosk.callsOf('debitGiftCard')).toEqual([]);
});

test('a debit main finds over the balance read (debits it knows of) is refused with the figures', async () => {
  rendered = await renderKiosk(<GiftCardScreen />, {
    handlers: {
      getGiftCard: () => ok(cached()),
      debitGiftCard: () =>
        fail({
          code: 'OUTBOX_OVER_KNOWN_BALANCE',
          message: 'over',
          details: {
            refusal: {
              rule: 'OUTBOX_OVER_KNOWN_BALANCE',
              knownBalance: 4.5,
              pending: 1,
              available: 3.5,
              amount: 4,
              asOf: '2026-11-23T09:15:00.000Z',
            },
          },
        }),
    },
  });
  const user = await findCard(['4']);
  await user.click(screen.getByRole('button', { name: 'Debit €4.00' }));
  const alert = await screen.findByText(/over what is left on the card/);
  const notice = alert.closest('[role="alert"]') ?? alert.parentElement!;
  expect(notice.textContent).toContain('€4.50');
  expect(notice.textContent).toContain('€1.00');
  expect(notice.textContent).toContain('€3.50');
});

test('an expired card: Debit disabled, with the reason', async () => {
  rendered = await renderKiosk(<GiftCardScreen />, {
    handlers: { getGiftCard: () => ok(serviceCard({ status: 'expired', debitable: false })) },
  });
  await findCard(['5']);
  expect(screen.getByRole('button', { name: 'Debit €5.00' })).toHaveProperty('disabled', true);
  expect(screen.getByTestId('debit-blocked').textContent).toMatch(
    /cannot be debited. Its status: /,
  );
});

test('debits still waiting for the card: the balance after them', async () => {
  rendered = await renderKiosk(<GiftCardScreen />, {
    handlers: {
      listDebits: (request) =>
        ok({
          debits:
            request.view === 'open'
              ? [
                  debit({ id: 1, amount: 20 }),
                  debit({ id: 2, amount: 5, giftCardId: 'gift_card_other' }),
                ]
              : [],
        }),
    },
  });
  await findCard();
  expect(screen.getByTestId('gift-card-balance').textContent).toBe('€114.50');
  expect((await screen.findByTestId('gift-card-after-waiting')).textContent).toBe(
    'After debits waiting: €94.50',
  );
});

test('back online, a card shown from its last read is read again: the service’s balance, no more "cannot be reached"', async () => {
  let online = false;
  rendered = await renderKiosk(<GiftCardScreen />, {
    handlers: {
      getGiftCard: () => (online ? ok(serviceCard({ balance: 3 })) : ok(cached())),
    },
  });
  act(() => rendered!.stores.connectivity.setState({ connectivity: 'offline' }));
  await findCard();
  expect(screen.getByTestId('gift-card-as-of')).toBeTruthy();
  online = true;
  act(() => rendered!.stores.connectivity.setState({ connectivity: 'online' }));
  await waitFor(() => expect(screen.getByTestId('gift-card-balance').textContent).toBe('€3.00'));
  expect(screen.queryByTestId('gift-card-as-of')).toBeNull();
});
