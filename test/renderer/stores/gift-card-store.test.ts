import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { IpcError, IpcResult } from '../../../shared/ipc/errors.ts';
import type {
  DebitGiftCardReply,
  DebitView,
  GetGiftCardRequest,
} from '../../../shared/ipc/gift-cards.ts';
import {
  type ConfirmationStorage,
  type DebitConfirmation,
  localConfirmationStorage,
} from '../../../renderer/stores/debit-confirmation.ts';
import {
  createGiftCardStore,
  type GiftCardState,
  type GiftCardStore,
} from '../../../renderer/stores/gift-card-store.ts';
import { debit, giftCard, serviceCard } from '../support/fixtures.ts';
import { fail, fakeKiosk, ok, type FakeKiosk } from '../support/fake-kiosk.ts';

/**
 * The store's side of one sale, one debit, on a fake clock: a confirmed debit whose outcome the
 * screen has not shown is asked about again with the same request (after each wait of the
 * schedule, the last repeated; at once when staff ask or reach its card again), and every way to
 * the card (typed or scanned code, last cards, a customer's credit, a reload, another card first)
 * leads back to it, never to a new request id, until its outcome is on screen.
 */

beforeEach(() => {
  vi.useFakeTimers();
});
let store: GiftCardStore | undefined;
afterEach(() => {
  store?.getState().dispose();
  store = undefined;
  vi.useRealTimers();
  window.localStorage.clear();
  window.sessionStorage.clear();
});

/** A storage the test reads: one confirmation per card, as the kiosk's localStorage keeps them. */
function keptIn(): ConfirmationStorage & { readonly kept: Map<string, DebitConfirmation> } {
  const kept = new Map<string, DebitConfirmation>();
  return {
    kept,
    load: () => [...kept.values()],
    save: (confirmation) => void kept.set(confirmation.giftCardId, confirmation),
    remove: (giftCardId) => void kept.delete(giftCardId),
  };
}

const lost: IpcError = { code: 'IPC_TRANSPORT_ERROR', message: 'the host went away' };
const otherCard = serviceCard({ id: 'gift_card_2', maskedNumber: '**** **** **** 7777' });

/** Cards by id; a scanned code `SCAN-<id>` is that card (the profile's scan rule, in main). */
function cardFor(request: GetGiftCardRequest) {
  const id = 'code' in request ? request.code.replace(/^SCAN-/u, '') : request.giftCardId;
  return ok(id === otherCard.id ? otherCard : serviceCard({ id }));
}

function reply(view: DebitView, replayed = false): IpcResult<DebitGiftCardReply> {
  return ok({
    debit: view,
    delivery: view.acceptedOffline ? 'stored-offline' : 'send-now',
    connectivity: 'online',
    settled: view.state !== 'pending' && view.state !== 'sending',
    replayed,
  });
}

function start(kiosk: FakeKiosk, storage: ConfirmationStorage = keptIn()) {
  store = createGiftCardStore(kiosk.api, () => 'online', {
    storage,
    recheckDelaysMs: [0, 60_000],
  });
  return store;
}

async function confirm(target: GiftCardStore, amount: string, giftCardId = giftCard.id) {
  await target.getState().openCard(giftCardId);
  target.getState().setAmount(amount);
  await target.getState().submitDebit();
}

/** What the screen offers: the debit form (GiftCardScreen's rule), or this debit's notice. */
function offersDebit(state: GiftCardState): boolean {
  return (
    state.card !== null &&
    (state.confirmation === null || (state.debiting && !state.lostReply && state.debit === null))
  );
}

/** A debit of 12.50 on the test card, whose first replies are these failures (other cards: none). */
async function confirmedDebit(failures: readonly IpcError[]) {
  let calls = 0;
  const kiosk = fakeKiosk({
    getGiftCard: cardFor,
    debitGiftCard: (request) => {
      if (request.giftCardId !== giftCard.id) {
        return reply(debit({ id: 5, giftCardId: request.giftCardId, state: 'applied' }));
      }
      const failure = failures[calls++];
      if (failure) return fail(failure);
      return reply(
        debit({ id: 3, amount: request.amount, state: 'applied', newBalance: 102 }),
        calls > 1,
      );
    },
  });
  const storage = keptIn();
  const target = start(kiosk, storage);
  await confirm(target, '12.5');
  return { kiosk, store: target, storage };
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
  expect([...storage.kept.values()]).toEqual([confirmation]);

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
    unshown: [],
  });
  expect(storage.kept.size).toBe(0);
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

test('every way back to the card while its reply is lost leads to that debit’s notice, never a new form', async () => {
  const { kiosk, store, storage } = await confirmedDebit(Array.from({ length: 20 }, () => lost));
  const first = store.getState().confirmation;
  const ways: [string, () => Promise<void>][] = [
    [
      'scanned (a code the scan rule turns into the id)',
      async () => {
        store.getState().setCardId(`SCAN-${giftCard.id}`);
        await store.getState().lookup();
      },
    ],
    [
      'typed',
      async () => {
        store.getState().setCardId(giftCard.id);
        await store.getState().lookup();
      },
    ],
    [
      'last cards, a customer’s credit, "use this card"',
      () => store.getState().openCard(giftCard.id),
    ],
  ];
  for (const [way, reach] of ways) {
    await reach();
    const state = store.getState();
    expect(state.card?.id, way).toBe(giftCard.id);
    expect(state.confirmation, way).toEqual(first);
    expect(state.lostReply, way).toBe(true);
    expect(offersDebit(state), way).toBe(false);
    // Pressing Debit (a stale form, a keyboard's Enter) sends that same debit again.
    state.setAmount('99');
    await store.getState().submitDebit();
  }
  const sent = kiosk.callsOf('debitGiftCard');
  // Each way in asked main about it again, under the one request id and amount.
  expect(store.getState().lostReply).toBe(true);
  expect(sent.length).toBeGreaterThanOrEqual(4);
  expect(new Set(sent.map((request) => `${request.requestId} ${request.amount}`))).toEqual(
    new Set([`${first?.requestId} 12.5`]),
  );
  expect([...storage.kept.values()]).toEqual([first]);
});

test('next card: the debit is kept and asked about; its card brings back the notice, then the outcome', async () => {
  const { kiosk, store, storage } = await confirmedDebit([lost, lost]);
  const first = store.getState().confirmation;
  store.getState().clear();
  expect(store.getState()).toMatchObject({ confirmation: null, card: null });
  expect(store.getState().unshown).toEqual([{ giftCardId: giftCard.id, amount: 12.5 }]);
  // Another customer's card meanwhile: debited as usual.
  await confirm(store, '5', otherCard.id);
  expect(store.getState().debit).toMatchObject({ state: 'applied' });
  const ofFirst = () =>
    kiosk.callsOf('debitGiftCard').filter((request) => request.giftCardId === giftCard.id);
  expect(ofFirst()).toHaveLength(1);

  // The schedule goes on while another card is on screen: main answers the lost one.
  await vi.advanceTimersByTimeAsync(60_000);
  expect(ofFirst()).toHaveLength(3);
  // Known, but not shown: the card is still guarded, the confirmation still kept.
  expect(store.getState().unshown).toEqual([{ giftCardId: giftCard.id, amount: 12.5 }]);
  expect(storage.kept.get(giftCard.id)).toEqual(first);

  await store.getState().openCard(giftCard.id);
  expect(store.getState()).toMatchObject({
    confirmation: null,
    debit: { id: 3, state: 'applied' },
    replayed: true,
    unshown: [],
  });
  expect(storage.kept.size).toBe(0);
  // Shown: the next debit on this card is another one.
  store.getState().setAmount('2');
  await store.getState().submitDebit();
  const last = kiosk.callsOf('debitGiftCard').at(-1);
  expect(last?.amount).toBe(2);
  expect(last?.requestId).not.toBe(first?.requestId);
});

test('waiting for the service: the card leads back to that debit until an event brings its outcome', async () => {
  let sending = debit({ id: 8, amount: 30, state: 'sending', attempts: 1 });
  const kiosk = fakeKiosk({
    getGiftCard: cardFor,
    // Main's view names the request id that stored it, as every reply and event does.
    debitGiftCard: (request) => reply((sending = { ...sending, requestId: request.requestId })),
  });
  const target = start(kiosk);
  await confirm(target, '30');
  const first = target.getState().confirmation;
  expect(target.getState()).toMatchObject({ debit: { id: 8, state: 'sending' }, lostReply: false });
  expect(first).not.toBeNull();
  expect(offersDebit(target.getState())).toBe(false);

  target.getState().clear();
  target.getState().setCardId(giftCard.id);
  await target.getState().lookup();
  expect(target.getState()).toMatchObject({ confirmation: first, debit: { id: 8 } });
  expect(offersDebit(target.getState())).toBe(false);
  // Reaching it again asked main at once; later the slow check goes on.
  expect(kiosk.callsOf('debitGiftCard')).toHaveLength(2);
  await vi.advanceTimersByTimeAsync(60_000);
  expect(kiosk.callsOf('debitGiftCard')).toHaveLength(3);

  target.getState().applyEvent({
    type: 'state-changed',
    debit: {
      ...sending,
      state: 'applied',
      newBalance: 84.5,
      updatedAt: '2026-03-14T10:05:00.000Z',
    },
    from: 'sending',
    to: 'applied',
    reason: 'APPLIED',
  });
  expect(target.getState()).toMatchObject({
    confirmation: null,
    debit: { id: 8, state: 'applied' },
    unshown: [],
  });
  expect(offersDebit(target.getState())).toBe(true);
  await vi.runAllTimersAsync();
  expect(kiosk.callsOf('debitGiftCard')).toHaveLength(3);
});

test('a lost reply’s debit named by an event (its request id): followed from then on', async () => {
  const kiosk = fakeKiosk({ getGiftCard: cardFor, debitGiftCard: () => fail(lost) });
  const target = start(kiosk);
  await confirm(target, '12.5');
  const first = target.getState().confirmation!;
  expect(target.getState().lostReply).toBe(true);
  // Someone else's debit: nothing changes.
  target.getState().applyEvent({
    type: 'accepted',
    debit: debit({ id: 40, requestId: crypto.randomUUID() }),
    connectivity: 'online',
  });
  expect(target.getState()).toMatchObject({ lostReply: true, debit: null });

  const stored = debit({ id: 41, amount: 12.5, state: 'sending', requestId: first.requestId });
  target.getState().applyEvent({ type: 'accepted', debit: stored, connectivity: 'online' });
  expect(target.getState()).toMatchObject({
    lostReply: false,
    confirmation: first,
    debit: { id: 41 },
  });
  expect(offersDebit(target.getState())).toBe(false);

  target.getState().applyEvent({
    type: 'state-changed',
    debit: { ...stored, state: 'applied', updatedAt: '2026-03-14T10:05:00.000Z' },
    from: 'sending',
    to: 'applied',
    reason: 'APPLIED',
  });
  expect(target.getState()).toMatchObject({
    confirmation: null,
    debit: { id: 41, state: 'applied' },
  });
});

test('a reload reopens every unshown debit by its request id, the newest card on screen', async () => {
  const storage = keptIn();
  const older: DebitConfirmation = {
    requestId: crypto.randomUUID(),
    giftCardId: otherCard.id,
    amount: 7,
    confirmedAt: '2026-03-14T10:00:00.000Z',
  };
  const newer: DebitConfirmation = {
    requestId: crypto.randomUUID(),
    giftCardId: giftCard.id,
    amount: 12.5,
    confirmedAt: '2026-03-14T10:01:00.000Z',
  };
  storage.save(older);
  storage.save(newer);
  const kiosk = fakeKiosk({ getGiftCard: cardFor, debitGiftCard: () => fail(lost) });
  const target = start(kiosk, storage);
  expect(target.getState()).toMatchObject({
    cardId: giftCard.id,
    confirmation: newer,
    lostReply: true,
  });
  await vi.advanceTimersByTimeAsync(0);
  expect(
    kiosk
      .callsOf('debitGiftCard')
      .map((request) => request.requestId)
      .sort(),
  ).toEqual(expect.arrayContaining([older.requestId, newer.requestId]));
  await target.getState().openCard(otherCard.id);
  expect(target.getState()).toMatchObject({ confirmation: older, lostReply: true });
  expect(target.getState().unshown.map((unshown) => unshown.giftCardId)).toEqual([
    otherCard.id,
    giftCard.id,
  ]);
});

test('refused before anything was stored: shown, forgotten, and the next press is a new debit', async () => {
  const refusal: IpcError = { code: 'OUTBOX_LIMIT_EXCEEDED', message: 'over 150.00 EUR' };
  const kiosk = fakeKiosk({ getGiftCard: cardFor, debitGiftCard: () => fail(refusal) });
  const storage = keptIn();
  const target = start(kiosk, storage);
  await confirm(target, '200');
  expect(target.getState()).toMatchObject({
    confirmation: null,
    debitError: refusal,
    amount: '200',
    unshown: [],
  });
  expect(storage.kept.size).toBe(0);
  await target.getState().submitDebit();
  const [first, second] = kiosk.callsOf('debitGiftCard');
  expect(second?.requestId).not.toBe(first?.requestId);
});

test('held over an offline limit (it may have reached the service): the sale is kept and its notice is every way back to the card until a person records the outcome', async () => {
  // Main's wait ended over the per-debit cap after its bytes may have left: not refused, not
  // taken; held for a person. Not an outcome for the screen: a new debit on the card would be a
  // second one for the same sale.
  const held: IpcError = {
    code: 'OUTBOX_OVER_LIMIT_OUTCOME_UNKNOWN',
    message: 'debit 9 (200.00 EUR) was not taken as an offline debit: held for a person',
  };
  let recorded = false;
  const kiosk = fakeKiosk({
    getGiftCard: cardFor,
    debitGiftCard: (request) =>
      recorded
        ? reply(debit({ id: 9, amount: request.amount, state: 'applied', newBalance: 0 }), true)
        : fail(held),
  });
  const storage = keptIn();
  const target = start(kiosk, storage);
  await confirm(target, '200');
  const first = target.getState().confirmation;
  expect(first).toMatchObject({ giftCardId: giftCard.id, amount: 200 });
  expect(target.getState()).toMatchObject({ lostReply: true, debit: null, debitError: held });
  expect(offersDebit(target.getState())).toBe(false);
  expect([...storage.kept.values()]).toEqual([first]);

  // An event about the held row is no outcome either ("stored offline" would be false).
  target.getState().applyEvent({
    type: 'state-changed',
    debit: debit({
      id: 9,
      amount: 200,
      state: 'pending',
      attempts: 1,
      requestId: first!.requestId,
      lastError: { code: 'NETWORK_ERROR', message: 'socket hang up' },
      outcomeUnknown: {
        since: '2026-03-14T10:00:00.000Z',
        reason: 'OVER_OFFLINE_LIMIT',
        balanceBefore: null,
        balanceNow: null,
      },
    }),
    from: 'sending',
    to: 'pending',
    reason: 'RETRY_SCHEDULED',
  });
  expect(target.getState()).toMatchObject({ confirmation: first, lostReply: true, debit: null });

  // Every way back: next customer then the card again, scanned, typed, recent cards, a reload.
  target.getState().clear();
  expect(target.getState().unshown).toEqual([{ giftCardId: giftCard.id, amount: 200 }]);
  const ways: [string, () => Promise<void>][] = [
    [
      'scanned',
      async () => {
        target.getState().setCardId(`SCAN-${giftCard.id}`);
        await target.getState().lookup();
      },
    ],
    [
      'typed',
      async () => {
        target.getState().setCardId(giftCard.id);
        await target.getState().lookup();
      },
    ],
    ['last cards, a customer’s credit', () => target.getState().openCard(giftCard.id)],
  ];
  for (const [way, reach] of ways) {
    await reach();
    const state = target.getState();
    expect(state.confirmation, way).toEqual(first);
    expect(state.lostReply, way).toBe(true);
    expect(state.debitError, way).toEqual(held);
    expect(offersDebit(state), way).toBe(false);
    state.setAmount('5');
    await target.getState().submitDebit();
  }
  store?.getState().dispose();
  const reloaded = start(kiosk, storage);
  await vi.advanceTimersByTimeAsync(0);
  expect(reloaded.getState()).toMatchObject({ confirmation: first, lostReply: true });
  expect(new Set(kiosk.callsOf('debitGiftCard').map((r) => `${r.requestId} ${r.amount}`))).toEqual(
    new Set([`${first?.requestId} 200`]),
  );

  // A person records it applied: main's next answer is that outcome, shown; then the card is free.
  recorded = true;
  await reloaded.getState().checkDebit();
  expect(reloaded.getState()).toMatchObject({
    confirmation: null,
    lostReply: false,
    debit: { id: 9, state: 'applied' },
    debitError: null,
    unshown: [],
  });
  expect(storage.kept.size).toBe(0);
});

test('withdrawn over an offline limit when its wait ended: the refusal is shown, even when the event comes before the reply', async () => {
  // Main withdraws the row (cancelled, OUTBOX_LIMIT_EXCEEDED) and emits that before its reply,
  // the refusal, reaches the screen: "cancelled" would not say that nothing was taken, nor why.
  const refusal: IpcError = { code: 'OUTBOX_LIMIT_EXCEEDED', message: 'over 50.00 EUR' };
  let answer: (result: IpcResult<DebitGiftCardReply>) => void = () => undefined;
  const kiosk = fakeKiosk({
    getGiftCard: cardFor,
    debitGiftCard: () => new Promise((resolve) => (answer = resolve)),
  });
  const storage = keptIn();
  const target = start(kiosk, storage);
  const submitted = confirm(target, '60');
  await vi.advanceTimersByTimeAsync(0);
  const [request] = kiosk.callsOf('debitGiftCard');
  const withdrawn = debit({
    id: 7,
    amount: 60,
    state: 'cancelled',
    requestId: request!.requestId,
    lastError: { code: 'OUTBOX_LIMIT_EXCEEDED', message: 'over 50.00 EUR' },
  });
  // Its first attempt failed before a byte went out: back to pending with that error, while
  // main's wait is still deciding. Not "stored offline".
  const failedAttempt = debit({
    id: 7,
    amount: 60,
    state: 'pending',
    attempts: 1,
    requestId: request!.requestId,
    lastError: { code: 'NETWORK_ERROR', message: 'connect ECONNREFUSED' },
  });
  target.getState().applyEvent({
    type: 'state-changed',
    debit: failedAttempt,
    from: 'sending',
    to: 'pending',
    reason: 'RETRY_SCHEDULED',
  });
  expect(target.getState()).toMatchObject({ debit: null, confirmation: { amount: 60 } });
  target.getState().applyEvent({
    type: 'state-changed',
    debit: { ...withdrawn, updatedAt: '2026-03-14T10:00:01.000Z' },
    from: 'pending',
    to: 'cancelled',
    reason: 'OUTBOX_LIMIT_EXCEEDED',
  });
  answer(fail(refusal));
  await submitted;
  expect(target.getState()).toMatchObject({ debit: null, debitError: refusal, amount: '60' });
  expect(storage.kept.size).toBe(0);
});

test('the kiosk’s storage: one key per card, reread after a reload, the old single key moved', () => {
  const storage = localConfirmationStorage();
  const a: DebitConfirmation = {
    requestId: crypto.randomUUID(),
    giftCardId: 'gift_card_a',
    amount: 3,
    confirmedAt: '2026-03-14T10:02:00.000Z',
  };
  const b: DebitConfirmation = {
    requestId: crypto.randomUUID(),
    giftCardId: 'gift_card_b',
    amount: 4,
    confirmedAt: '2026-03-14T10:01:00.000Z',
  };
  const legacy: DebitConfirmation = {
    requestId: crypto.randomUUID(),
    giftCardId: 'gift_card_c',
    amount: 5,
  };
  window.sessionStorage.setItem('kiosk.debitConfirmation', JSON.stringify(legacy));
  window.localStorage.setItem('kiosk.debitConfirmation:gift_card_x', '{not json');
  storage.save(a);
  storage.save(b);
  expect(localConfirmationStorage().load()).toEqual([legacy, b, a]);
  expect(window.sessionStorage.getItem('kiosk.debitConfirmation')).toBeNull();
  storage.remove('gift_card_a');
  expect(localConfirmationStorage().load()).toEqual([legacy, b]);
});
