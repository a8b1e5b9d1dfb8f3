import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import type { IpcResult } from '../../../shared/ipc/errors.ts';
import type { DebitGiftCardReply } from '../../../shared/ipc/gift-cards.ts';
import { GiftCardScreen } from '../../../renderer/screens/GiftCardScreen.tsx';
import { DEBIT_WAIT_MS } from '../../../renderer/stores/gift-card-store.ts';
import { debit, giftCard, serviceCard, outboxSummary } from '../support/fixtures.ts';
import { fail, ok } from '../support/fake-kiosk.ts';
import { renderKiosk, type RenderedKiosk } from '../support/render-kiosk.tsx';

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  // Next card: no check of a lost reply left scheduled, no confirmation left for the next test.
  rendered?.stores.giftCard.getState().clear();
  rendered?.stop();
  cleanup();
  window.sessionStorage.clear();
  window.localStorage.clear();
});

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A reply the test hands over when it chooses: main still working on the request. */
function deferred() {
  let resolve!: (value: IpcResult<DebitGiftCardReply>) => void;
  const promise = new Promise<IpcResult<DebitGiftCardReply>>((done) => (resolve = done));
  return { promise, resolve };
}

/** Finds the card, types the amount on the on-screen keypad, presses Debit. */
async function debitWithKeypad(keys: string[]) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Card number (type or scan)'), giftCard.id);
  await user.click(screen.getByRole('button', { name: 'Find card' }));
  await screen.findByTestId('gift-card');
  const keypad = screen.getByRole('group', { name: 'Numeric keypad' });
  for (const key of keys) await user.click(within(keypad).getByRole('button', { name: key }));
  return user;
}

test('the card shows its masked number and the balance the service computed', async () => {
  rendered = await renderKiosk(<GiftCardScreen />);
  await debitWithKeypad([]);
  const card = screen.getByTestId('gift-card');
  expect(within(card).getByRole('heading').textContent).toBe('Card **** **** **** 4821');
  expect(screen.getByTestId('gift-card-balance').textContent).toBe('€114.50');
});

test('applied: the new balance, and the card read again from the service', async () => {
  let reads = 0;
  rendered = await renderKiosk(<GiftCardScreen />, {
    handlers: { getGiftCard: () => ok(serviceCard({ balance: reads++ === 0 ? 114.5 : 94.5 })) },
  });
  const user = await debitWithKeypad(['2', '0']);
  expect(screen.getByLabelText('Amount to debit')).toHaveProperty('value', '20');
  await user.click(screen.getByRole('button', { name: 'Debit €20.00' }));

  const outcome = await screen.findByTestId('debit-outcome');
  expect(outcome.dataset['outcome']).toBe('applied');
  expect(outcome.textContent).toContain('Debit of €20.00 applied.');
  expect(outcome.textContent).toContain('New balance: €94.50');
  await screen.findByText('€94.50', { selector: '[data-testid="gift-card-balance"]' });
  expect(rendered.kiosk.callsOf('debitGiftCard')).toEqual([
    {
      requestId: expect.stringMatching(uuidV4),
      giftCardId: giftCard.id,
      amount: 20,
      policy: 'prefer_online',
      waitMs: DEBIT_WAIT_MS,
    },
  ]);
});

test('a lost reply: "may be stored", no new debit offered, the same request sent again shows the one debit', async () => {
  const again = deferred();
  let calls = 0;
  rendered = await renderKiosk(<GiftCardScreen />, {
    handlers: {
      debitGiftCard: (request) => {
        calls += 1;
        // The first reply is lost on the way (the bridge throws); main answers the second.
        if (calls === 1) throw new Error('the loopback host went away');
        if (calls === 2) return again.promise;
        return ok({
          debit: debit({ id: 10, amount: request.amount, state: 'applied' }),
          delivery: 'send-now',
          connectivity: 'online',
          settled: true,
          replayed: false,
        });
      },
    },
  });
  const user = await debitWithKeypad(['2', '0']);
  await user.click(screen.getByRole('button', { name: 'Debit €20.00' }));

  const notice = await screen.findByTestId('debit-may-be-stored');
  expect(notice.textContent).toContain('The debit of €20.00 may already be stored.');
  expect(notice.textContent).toContain('Do not debit the card again');
  // No fresh form to press Debit on again while main is asked about this one.
  expect(screen.queryByRole('form', { name: 'Debit the card' })).toBeNull();
  expect(screen.queryByRole('button', { name: /^Debit/ })).toBeNull();
  await within(notice).findByText('Checking this debit…');

  again.resolve(
    ok({
      debit: debit({ id: 9, amount: 20, state: 'applied', newBalance: 94.5 }),
      delivery: 'send-now',
      connectivity: 'online',
      settled: true,
      replayed: true,
    }),
  );
  const outcome = await screen.findByTestId('debit-outcome');
  expect(outcome.dataset['outcome']).toBe('applied');
  expect(screen.getByTestId('debit-replayed').textContent).toBe(
    'This debit had already been stored: it was not made a second time.',
  );
  expect(screen.queryByTestId('debit-may-be-stored')).toBeNull();
  const sent = rendered.kiosk.callsOf('debitGiftCard');
  expect(sent).toHaveLength(2);
  expect(sent[1]).toEqual(sent[0]);
  expect(sent[0]?.requestId).toMatch(uuidV4);
  // The outcome is on screen: the form is back, and the next confirmation is another debit.
  await user.click(screen.getByRole('button', { name: '2' }));
  await user.click(screen.getByRole('button', { name: 'Debit €2.00' }));
  await screen.findByText('Debit of €2.00 applied.');
  const next = rendered.kiosk.callsOf('debitGiftCard')[2];
  expect(next?.requestId).toMatch(uuidV4);
  expect(next?.requestId).not.toBe(sent[0]?.requestId);
});

test('a reload between the confirmation and its outcome asks main about the same debit', async () => {
  // Main never answers this page: it is reloaded before the reply comes.
  rendered = await renderKiosk(<GiftCardScreen />, {
    handlers: { debitGiftCard: () => new Promise(() => {}) },
  });
  const user = await debitWithKeypad(['1', '5']);
  await user.click(screen.getByRole('button', { name: 'Debit €15.00' }));
  await screen.findByText('Debiting…');
  const [first] = rendered.kiosk.callsOf('debitGiftCard');
  rendered.stop();
  cleanup();

  rendered = await renderKiosk(<GiftCardScreen />, {
    handlers: {
      debitGiftCard: (request) =>
        ok({
          debit: debit({ id: 4, amount: request.amount, acceptedOffline: true }),
          delivery: 'stored-offline',
          connectivity: 'offline',
          settled: false,
          replayed: true,
        }),
    },
  });
  const outcome = await screen.findByTestId('debit-outcome');
  expect(outcome.dataset['outcome']).toBe('storedOffline');
  expect(screen.getByTestId('debit-replayed')).toBeTruthy();
  expect(rendered.kiosk.callsOf('debitGiftCard')).toEqual([first]);
  // The card of that debit is on screen again.
  expect(await screen.findByTestId('gift-card')).toBeTruthy();
  expect(window.localStorage.length).toBe(0);
});

test('refused: the service’s reason, and nothing taken', async () => {
  rendered = await renderKiosk(<GiftCardScreen />, {
    handlers: {
      debitGiftCard: (request) =>
        ok({
          debit: debit({
            amount: request.amount,
            state: 'refused',
            lastError: { code: 'INSUFFICIENT_BALANCE', message: 'CONFLICT: balance 4.50 < 20.00' },
          }),
          delivery: 'send-now',
          connectivity: 'online',
          settled: true,
          replayed: false,
        }),
    },
  });
  const user = await debitWithKeypad(['2', '0']);
  await user.click(screen.getByRole('button', { name: 'Debit €20.00' }));
  const outcome = await screen.findByTestId('debit-outcome');
  expect(outcome.dataset['outcome']).toBe('refused');
  expect(screen.getByTestId('refusal-reason').textContent).toBe(
    'The card’s balance is too low for this amount.',
  );
  expect(outcome.textContent).toContain('Nothing was taken from the card.');
});

test('stored offline: the warning and the limits, then applied when main says so', async () => {
  rendered = await renderKiosk(<GiftCardScreen />, {
    handlers: {
      debitGiftCard: (request) =>
        ok({
          debit: debit({ id: 7, amount: request.amount, acceptedOffline: true }),
          delivery: 'stored-offline',
          connectivity: 'offline',
          settled: false,
          replayed: false,
        }),
      getOutboxSummary: () => ok({ ...outboxSummary, openCount: 1, openAmount: 12.5 }),
    },
  });
  const user = await debitWithKeypad(['1', '2', 'Decimal separator', '5']);
  await user.click(screen.getByRole('button', { name: 'Debit €12.50' }));

  const outcome = await screen.findByTestId('debit-outcome');
  expect(outcome.dataset['outcome']).toBe('storedOffline');
  expect(outcome.textContent).toContain('Debit of €12.50 stored offline.');
  const limits = within(outcome).getByTestId('offline-limits');
  expect(limits.textContent).toContain('At most €150.00 per debit while offline');
  expect(limits.textContent).toContain('Waiting: €12.50 of at most €1,000.00');

  await act(async () => {
    rendered?.kiosk.emit('outboxChanged', {
      type: 'state-changed',
      debit: debit({
        id: 7,
        amount: 12.5,
        acceptedOffline: true,
        state: 'applied',
        newBalance: 102,
        updatedAt: '2026-03-14T10:05:00.000Z',
      }),
      from: 'sending',
      to: 'applied',
      reason: 'APPLIED',
    });
  });
  expect(screen.getByTestId('debit-outcome').dataset['outcome']).toBe('applied');
  expect(screen.getByTestId('debit-outcome').textContent).toContain('New balance: €102.00');
});

test('a debit over the offline limits is refused by the kiosk in plain words', async () => {
  rendered = await renderKiosk(<GiftCardScreen />, {
    handlers: {
      getGiftCard: () => ok(serviceCard({ balance: 500 })),
      debitGiftCard: () =>
        fail({
          code: 'OUTBOX_LIMIT_EXCEEDED',
          message: 'maxOfflineDebitAmount is 150.00 EUR',
          details: {
            breach: {
              limit: 'maxOfflineDebitAmount',
              allowed: 150,
              wouldBe: 200,
              excess: 50,
              unit: 'EUR',
            },
          },
        }),
    },
  });
  const user = await debitWithKeypad(['2', '0', '0']);
  await user.click(screen.getByRole('button', { name: 'Debit €200.00' }));
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('over the kiosk’s offline limits');
  expect(alert.textContent).toContain('€150.00');
  // Refused before anything was stored: nothing "may be stored", and pressing again is a new debit.
  expect(screen.queryByTestId('debit-may-be-stored')).toBeNull();
  await user.click(screen.getByRole('button', { name: 'Debit €200.00' }));
  await vi.waitFor(() => expect(rendered?.kiosk.callsOf('debitGiftCard')).toHaveLength(2));
  const [first, second] = rendered.kiosk.callsOf('debitGiftCard');
  expect(second?.requestId).not.toBe(first?.requestId);
});

test('pending list: states, send now, cancel only for a debit never sent, a refused one resolved', async () => {
  const neverSent = debit({ id: 1, amount: 10, acceptedOffline: true });
  const tried = debit({
    id: 2,
    amount: 15,
    attempts: 2,
    lastError: { code: 'NETWORK_ERROR', message: 'reset' },
  });
  const refused = debit({
    id: 3,
    amount: 30,
    state: 'refused',
    lastError: { code: 'GIFT_CARD_EXPIRED', message: '' },
  });
  rendered = await renderKiosk(<GiftCardScreen />, {
    handlers: {
      listDebits: (request) =>
        ok({ debits: request.view === 'open' ? [neverSent, tried] : [refused] }),
    },
  });
  const list = await screen.findByTestId('pending-debits');
  const rows = await within(list).findAllByTestId('pending-debit');
  expect(rows.map((row) => row.dataset['state'])).toEqual(['refused', 'pending', 'pending']);
  expect(rows[0]?.textContent).toContain('The card has expired.');
  expect(
    within(list)
      .getAllByRole('button', { name: /^Cancel the debit/ })
      .map((b) => b.getAttribute('aria-label')),
  ).toEqual(['Cancel the debit of €10.00']);

  const user = userEvent.setup();
  await user.click(within(list).getByRole('button', { name: 'Send now' }));
  await user.click(within(list).getByRole('button', { name: 'Cancel the debit of €10.00' }));
  // No way to put it away without saying what became of the money: the alert's own actions.
  expect(within(list).queryByRole('button', { name: /^Seen/ })).toBeNull();
  const refusedRow = rows[0]!;
  await user.click(within(refusedRow).getByRole('radio', { name: 'Other' }));
  await user.click(
    within(refusedRow).getByRole('button', { name: 'Collected another way: debit of €30.00' }),
  );
  expect(
    within(refusedRow).getByRole('button', { name: 'Could not collect: debit of €30.00' }),
  ).toBeTruthy();
  expect(rendered.kiosk.callsOf('sendOutboxNow')).toHaveLength(1);
  expect(rendered.kiosk.callsOf('cancelDebit')).toEqual([{ debitId: 1 }]);
  expect(rendered.kiosk.callsOf('resolveDebit')).toEqual([
    { debitId: 3, resolution: { kind: 'collected_other_way', method: 'other' } },
  ]);
  expect(rendered.kiosk.callsOf('acknowledgeDebit')).toEqual([]);
});
