import { createStore, type StoreApi } from 'zustand/vanilla';
import type { KioskApi } from '../../shared/ipc/contract.ts';
import type { IpcError } from '../../shared/ipc/errors.ts';
import type { OutboxChanged } from '../../shared/ipc/events.ts';
import type {
  ConnectivityState,
  DebitGiftCardReply,
  DebitView,
  GetGiftCardRequest,
  GiftCardLookup,
  RecentCard,
} from '../../shared/ipc/gift-cards.ts';
import { amountValue } from '../input/amount-entry.ts';
import { settle } from './call.ts';
import {
  type ConfirmationStorage,
  type DebitConfirmation,
  sessionConfirmationStorage,
} from './debit-confirmation.ts';
import { mayBeStored } from './debit-outcome.ts';

/** How long main may wait for the service before replying: most answers come well within it. */
export const DEBIT_WAIT_MS = 8_000;

/**
 * After a lost reply main is asked again after each of these waits in turn (the last repeated),
 * until it answers: at once for a glitch, then more slowly while the host restarts.
 */
export const RECHECK_DELAYS_MS: readonly number[] = [0, 1_000, 2_000, 5_000, 10_000, 15_000];

export interface GiftCardStoreOptions {
  /** Where a confirmation waiting for its outcome survives a reload; default sessionStorage. */
  readonly storage?: ConfirmationStorage;
  readonly recheckDelaysMs?: readonly number[];
}

export interface GiftCardState {
  /** What the card field shows: the code staff typed or scanned, or the id a credit named. */
  readonly cardId: string;
  /** The service's card, or offline the kiosk's last read of it (`source: 'cache'`). */
  readonly card: GiftCardLookup | null;
  readonly looking: boolean;
  readonly lookupError: IpcError | null;
  /** The amount as typed on the keypad: digits and at most one `.`. */
  readonly amount: string;
  readonly reference: string;
  readonly debiting: boolean;
  /** The debit of this card session, kept up to date by the outbox events. */
  readonly debit: DebitView | null;
  readonly delivery: DebitGiftCardReply['delivery'] | null;
  readonly debitError: IpcError | null;
  /**
   * The debit staff confirmed, until its outcome is on screen: every retry sends it again with
   * its request id, so main stores it once however many times it is sent.
   */
  readonly confirmation: DebitConfirmation | null;
  /**
   * The reply about `confirmation` was lost: the debit may be stored. Main is asked again (same
   * request id) until it answers; no new debit is offered meanwhile.
   */
  readonly lostReply: boolean;
  /** The debit shown was already stored when its confirmation was sent again. */
  readonly replayed: boolean;
  /** The cards this kiosk read last (masked numbers only), to open one again in one touch. */
  readonly recentCards: readonly RecentCard[];
  loadRecentCards(): Promise<void>;
  setCardId(cardId: string): void;
  /** Looks up the code in the card field (typed or scanned): main makes it the service's id. */
  lookup(): Promise<void>;
  /** Opens the card with this service id (a customer's or a sale's credit names it). */
  openCard(giftCardId: string): Promise<void>;
  setAmount(amount: string): void;
  setReference(reference: string): void;
  submitDebit(): Promise<void>;
  /** After a lost reply: ask main about the confirmed debit now. */
  checkDebit(): Promise<void>;
  applyEvent(event: OutboxChanged): void;
  /** Next customer: forget the card, the amount and the outcome. */
  clear(): void;
}

export type GiftCardStore = StoreApi<GiftCardState>;

const fresh = {
  cardId: '',
  card: null,
  looking: false,
  lookupError: null,
  amount: '',
  reference: '',
  debiting: false,
  debit: null,
  delivery: null,
  debitError: null,
  confirmation: null,
  lostReply: false,
  replayed: false,
} as const;

/**
 * `connectivity` is main's last word on the service: known offline, the debit is stored at once
 * rather than after a wait for an answer that cannot come.
 */
export function createGiftCardStore(
  api: KioskApi,
  connectivity: () => ConnectivityState | null = () => null,
  {
    storage = sessionConfirmationStorage(),
    recheckDelaysMs = RECHECK_DELAYS_MS,
  }: GiftCardStoreOptions = {},
): GiftCardStore {
  return createStore<GiftCardState>()((set, get) => {
    let lookupGeneration = 0;
    let recheck: ReturnType<typeof setTimeout> | undefined;
    let lostReplies = 0;
    // The newest view of each debit the events showed: an event can overtake the reply that
    // tells which debit is ours.
    const seen = new Map<number, DebitView>();
    const newest = (debit: DebitView): DebitView => {
      const other = seen.get(debit.id);
      return other && other.updatedAt > debit.updatedAt ? other : debit;
    };

    const reread = async (giftCardId: string) => {
      const mine = ++lookupGeneration;
      const reply = await settle(api.getGiftCard({ giftCardId }));
      // The card on screen, or the one a reload left without its details yet.
      const shown = get().card?.id ?? get().cardId;
      if (mine !== lookupGeneration || shown !== giftCardId) return;
      // Only a fresh read may replace the balance: the service computes it, not the kiosk.
      if (reply.ok && reply.value.source === 'service') set({ card: reply.value });
    };

    /** This confirmation is over (an outcome, a refusal, or staff moved on). */
    const settleConfirmation = () => {
      if (recheck !== undefined) clearTimeout(recheck);
      recheck = undefined;
      lostReplies = 0;
      storage.save(null);
    };

    const send = async (confirmation: DebitConfirmation) => {
      if (recheck !== undefined) clearTimeout(recheck);
      recheck = undefined;
      set({ debiting: true, debitError: null });
      const reply = await settle(
        api.debitGiftCard({
          requestId: confirmation.requestId,
          giftCardId: confirmation.giftCardId,
          amount: confirmation.amount,
          ...(confirmation.reference === undefined ? {} : { reference: confirmation.reference }),
          policy: 'prefer_online',
          waitMs: connectivity() === 'offline' ? 0 : DEBIT_WAIT_MS,
        }),
      );
      // Staff moved on (another card) meanwhile: that confirmation is no longer on screen.
      if (get().confirmation?.requestId !== confirmation.requestId) return;
      if (reply.ok) {
        settleConfirmation();
        const debit = newest(reply.value.debit);
        set({
          confirmation: null,
          lostReply: false,
          debiting: false,
          debit,
          delivery: reply.value.delivery,
          replayed: reply.value.replayed,
          amount: '',
        });
        if (debit.state === 'applied') await reread(confirmation.giftCardId);
        return;
      }
      if (mayBeStored(reply.error)) {
        // Never a fresh form here: the same request is sent again until main says what it is.
        set({ debiting: false, lostReply: true });
        const delay = recheckDelaysMs[Math.min(lostReplies, recheckDelaysMs.length - 1)] ?? 0;
        lostReplies += 1;
        recheck = setTimeout(() => void send(confirmation), delay);
        return;
      }
      // Refused before anything was stored: the next confirmation is another debit.
      settleConfirmation();
      set({ confirmation: null, lostReply: false, debiting: false, debitError: reply.error });
    };

    const find = async (request: GetGiftCardRequest, shown: string) => {
      if (shown === '') return;
      const mine = ++lookupGeneration;
      settleConfirmation();
      set({ ...fresh, cardId: shown, looking: true });
      const reply = await settle(api.getGiftCard(request));
      if (mine !== lookupGeneration) return;
      if (reply.ok) {
        set({ card: reply.value, looking: false });
        void get().loadRecentCards();
      } else {
        set({ looking: false, lookupError: reply.error });
      }
    };

    // A reload came between a confirmation and its outcome: ask main about that same debit.
    const restored = storage.load();
    if (restored) {
      queueMicrotask(() => {
        if (get().confirmation?.requestId !== restored.requestId) return;
        void reread(restored.giftCardId);
        void send(restored);
      });
    }

    return {
      ...fresh,
      recentCards: [],
      loadRecentCards: async () => {
        const reply = await settle(api.listRecentCards({}));
        // A list that cannot be read is no reason to stop staff: the field still works.
        if (reply.ok) set({ recentCards: reply.value.cards });
      },
      ...(restored ? { cardId: restored.giftCardId, confirmation: restored, lostReply: true } : {}),
      setCardId: (cardId) => set({ cardId }),
      lookup: () => {
        const code = get().cardId.trim();
        return find({ code }, code);
      },
      openCard: (giftCardId) => find({ giftCardId }, giftCardId),
      setAmount: (amount) => set({ amount }),
      setReference: (reference) => set({ reference }),
      submitDebit: async () => {
        const { card, amount, reference, debiting, confirmation } = get();
        if (debiting) return;
        // A confirmation still without its outcome is sent again, never replaced by another.
        if (confirmation) return send(confirmation);
        const value = amountValue(amount);
        if (!card || value === null) return;
        const next: DebitConfirmation = {
          requestId: crypto.randomUUID(),
          giftCardId: card.id,
          amount: value,
          ...(reference.trim() === '' ? {} : { reference: reference.trim() }),
        };
        // Kept before it is sent: a reload from here on asks about this debit, not a new one.
        storage.save(next);
        set({ confirmation: next, debit: null, delivery: null, replayed: false, debitError: null });
        await send(next);
      },
      checkDebit: async () => {
        const { confirmation, debiting } = get();
        if (confirmation && !debiting) await send(confirmation);
      },
      applyEvent: (event) => {
        if (!('debit' in event)) return;
        seen.set(event.debit.id, newest(event.debit));
        // Only the latest few matter (the one being submitted); keep the map small.
        if (seen.size > 50) seen.delete(seen.keys().next().value as number);
        const current = get().debit;
        if (!current || current.id !== event.debit.id) return;
        if (current.updatedAt > event.debit.updatedAt) return;
        set({ debit: event.debit });
        if (event.debit.state === 'applied' && current.state !== 'applied') {
          void reread(event.debit.giftCardId);
        }
      },
      clear: () => {
        lookupGeneration++;
        settleConfirmation();
        set(fresh);
      },
    };
  });
}
