import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { IpcError } from '../../../shared/ipc/errors.ts';
import type {
  ConfirmationStorage,
  DebitConfirmation,
} from '../../../renderer/stores/debit-confirmation.ts';
import { createGiftCardStore } from '../../../renderer/stores/gift-card-store.ts';
import { debit, giftCard } from '../support/fixtures.ts';
import { fail, fakeKiosk, ok } from '../support/fake-kiosk.ts';

/**
 * The store's side of a lost reply, on a fake clock: main is asked again with the same request
 * after each wait of the schedule (the last repeated), at once when staff ask, never once staff
 * moved on.
 */

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function keptIn(): ConfirmationStorage & { kept: DebitConfirmation | null } {
  const storage = {
    kept: null as DebitConfirmation | null,
    load: () => storage.kept,
    save: (confirmation: DebitConfirmation | null) => {
      storage.kept = confirmation;
    },
  };
  return storage;
}

const lost: IpcError = { code: 'IPC_TRANSPORT_ERROR', message: 'the host went away' };

async function confirmedDebit(failures: readonly IpcError[]) {
  let calls = 0;
  const kiosk = fakeKiosk({
    debitGiftCard: (request) => {
      const failure = failures[calls++];
      if (failure) return fail(failure);
      return ok({
        debit: debit({ id: 3, amount: request.amount, state: 'applied', newBalance: 102 }),
        delivery: 'send-now',
        connectivity: 'online',
        settled: true,
        replayed: calls > 1,
      });
    },
  });
  const storage = keptIn();
  const store = createGiftCardStore(kiosk.api, () => 'online', {
    storage,
    recheckDelaysMs: [0, 60_000],
  });
  store.getState().setCardId(giftCard.id);
  await store.getState().lookup();
  store.getState().setAmount('12.5');
  await store.getState().submitDebit();
  return { kiosk, store, storage };
}

test('lost replies: the same request again on the schedule and when staff ask, until main answers', async () => {
  const { kiosk, store, storage } = await confirmedDebit([
    lost,
    { code: 'RENDERER_TRANSPORT_ERROR', message: 'reload' },
    { code: 'IPC_INTERNAL_ERROR', message: 'unexpected failure' },
  ]);
  expect(store.getState()).toMatchObject({ lostReply: true, debit: null, debitError: null });
  const confirmation = store.getState().confirmation;
  expect(confirmation).toMatchObject({ giftCardId: giftCard.id, amount: 12.5 });
  expect(storage.kept).toEqual(confirmation);

  await vi.advanceTimersByTimeAsync(0); // the first wait: asked again at once
  expect(kiosk.callsOf('debitGiftCard')).toHaveLength(2);
  // Staff ask now rather than wait the next minute: the schedule's timer gives way.
  await store.getState().checkDebit();
  expect(kiosk.callsOf('debitGiftCard')).toHaveLength(3);
  expect(store.getState().lostReply).toBe(true);
  await vi.advanceTimersByTimeAsync(59_999);
  expect(kiosk.callsOf('debitGiftCard')).toHaveLength(3);
  await vi.advanceTimersByTimeAsync(1);
  expect(kiosk.callsOf('debitGiftCard')).toHaveLength(4);

  expect(store.getState()).toMatchObject({
    lostReply: false,
    confirmation: null,
    replayed: true,
    amount: '',
    debit: { id: 3, state: 'applied' },
  });
  expect(storage.kept).toBeNull();
  const sent = kiosk.callsOf('debitGiftCard');
  for (const request of sent) expect(request).toEqual(sent[0]);
  expect(sent[0]?.requestId).toBe(confirmation?.requestId);
  await vi.runAllTimersAsync();
  expect(kiosk.callsOf('debitGiftCard')).toHaveLength(4);
});

test('pressing Debit again after a lost reply sends the same confirmation, not the new amount', async () => {
  const { kiosk, store } = await confirmedDebit([lost, lost]);
  await vi.advanceTimersByTimeAsync(0);
  store.getState().setAmount('40');
  await store.getState().submitDebit();
  const sent = kiosk.callsOf('debitGiftCard');
  expect(sent).toHaveLength(3);
  expect(sent.map((request) => [request.requestId, request.amount])).toEqual(
    sent.map(() => [sent[0]?.requestId, 12.5]),
  );
});

test('next card: the confirmation is dropped and main is not asked again', async () => {
  const { kiosk, store, storage } = await confirmedDebit([lost, lost, lost]);
  store.getState().clear();
  await vi.runAllTimersAsync();
  expect(kiosk.callsOf('debitGiftCard')).toHaveLength(1);
  expect(store.getState().confirmation).toBeNull();
  expect(storage.kept).toBeNull();
});
