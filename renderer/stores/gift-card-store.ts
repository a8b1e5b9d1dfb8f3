import { createStore, type StoreApi } from 'zustand/vanilla';
import type { KioskApi } from '../../shared/ipc/contract.ts';
import type { IpcError } from '../../shared/ipc/errors.ts';
import type { OutboxChanged } from '../../shared/ipc/events.ts';
import type {
  ConnectivityState,
  DebitDelivery,
  DebitGiftCardReply,
  DebitView,
  GetGiftCardRequest,
  GiftCardLookup,
  RecentCard,
} from '../../shared/ipc/gift-cards.ts';
import { COUNTER_WAIT_MS } from '../../shared/ipc/counter-wait.ts';
import { amountValue } from '../input/amount-entry.ts';
import { settle } from './call.ts';
import {
  type ConfirmationStorage,
  type DebitConfirmation,
  localConfirmationStorage,
} from './debit-confirmation.ts';
import {
  isHeldOverLimit,
  isHeldOverLimitView,
  isWithdrawnView,
  mayBeStored,
  outcomeOf,
} from './debit-outcome.ts';

/**
 * How long main may wait for the service before replying: most answers come well within it, and
 * a customer at the counter is not kept waiting longer (then it is stored offline).
 */
export const DEBIT_WAIT_MS = COUNTER_WAIT_MS;

/**
 * After a lost reply main is asked again after each of these waits in turn (the last repeated),
 * until it answers: at once for a glitch, then more slowly while the host restarts. A debit main
 * stored but the service has not answered yet is asked about again after the last wait.
 */
export const RECHECK_DELAYS_MS: readonly number[] = [0, 1_000, 2_000, 5_000, 10_000, 15_000];

export interface GiftCardStoreOptions {
  /** Where a confirmation waiting for its outcome survives a reload; default localStorage. */
  readonly storage?: ConfirmationStorage;
  readonly recheckDelaysMs?: readonly number[];
}

/** A card's debit staff confirmed, whose outcome this screen has not shown yet. */
export interface UnshownDebit {
  readonly giftCardId: string;
  readonly amount: number;
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
   * The debit staff confirmed on the card on screen, until its outcome is on screen: every retry
   * sends it again with its request id, so main stores it once however many times it is sent.
   * While it is set no other debit of this card is offered, however staff reach the card again.
   */
  readonly confirmation: DebitConfirmation | null;
  /**
   * The reply about `confirmation` was lost: the debit may be stored. Main is asked again (same
   * request id) until it answers; no new debit is offered meanwhile.
   */
  readonly lostReply: boolean;
  /** The debit shown was already stored when its confirmation was sent again. */
  readonly replayed: boolean;
  /**
   * Every card's debit whose outcome this screen has not shown yet (oldest first), on screen or
   * not: each is asked about until main knows, and shown when staff reach its card again.
   */
  readonly unshown: readonly UnshownDebit[];
  /** The cards this kiosk read last (masked numbers only), to open one again in one touch. */
  readonly recentCards: readonly RecentCard[];
  loadRecentCards(): Promise<void>;
  setCardId(cardId: string): void;
  /** Looks up the code in the card field (typed or scanned): main makes it the service's id. */
  lookup(): Promise<void>;
  /** Opens the card with this service id (a customer's or a sale's credit names it). */
  openCard(giftCardId: string): Promise<void>;
  /** Reads the card on screen again (back online): a fresh read replaces its last known one. */
  refreshCard(): void;
  setAmount(amount: string): void;
  setReference(reference: string): void;
  submitDebit(): Promise<void>;
  /** Ask main about the confirmed debit of the card on screen now (a lost reply, a slow answer). */
  checkDebit(): Promise<void>;
  applyEvent(event: OutboxChanged): void;
  /**
   * Next customer: forget the card, the amount and the outcome on screen. A debit whose outcome
   * was not shown yet is kept (and asked about) until staff reach its card again.
   */
  clear(): void;
  /** The kiosk is torn down: no more questions to main. */
  dispose(): void;
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
 * One card's confirmed debit, from the press on Debit until its outcome is on screen: what main
 * said of it so far, and the next question to main.
 */
interface Sale {
  readonly confirmation: DebitConfirmation;
  /** A request about it is on its way to main. */
  sending: boolean;
  /** The last request's reply was lost: it may be stored. */
  lost: boolean;
  /** Main's view of it, once a reply or an event named it (its state may still be open). */
  debit: DebitView | null;
  delivery: DebitDelivery | null;
  replayed: boolean;
  /** Refused before anything was stored (an offline limit, bad input). */
  error: IpcError | null;
  /**
   * Main holds it for a person (over an offline limit, its bytes may have reached the service):
   * not an outcome. Its notice stays on screen and main is asked again until a person records it.
   */
  held: IpcError | null;
  timer: ReturnType<typeof setTimeout> | undefined;
  lostReplies: number;
}

/**
 * Main's newer word on a debit, whichever way it came: events arrive in the order main emits
 * them, and a reply only ever tells about its own request's debit, so the last to arrive stands,
 * except that nothing undoes a final state (a reply read before the answer may arrive after the
 * event that brought it).
 */
function laterView(current: DebitView | null, next: DebitView): DebitView {
  return current !== null && isFinal(current) && !isFinal(next) ? current : next;
}

function isFinal(debit: DebitView): boolean {
  return debit.state !== 'pending' && debit.state !== 'sending';
}

/** What main said is an outcome to show (the service's answer, stored offline, a refusal). */
function outcomeKnown(sale: Sale): boolean {
  if (sale.error !== null) return true;
  if (sale.held !== null) return false;
  return (
    sale.debit !== null &&
    !isHeldOverLimitView(sale.debit) &&
    outcomeOf(sale.debit, sale.delivery) !== 'waiting'
  );
}

/**
 * `connectivity` is main's last word on the service: known offline, the debit is stored at once
 * rather than after a wait for an answer that cannot come.
 *
 * One sale, one debit: a confirmed debit is kept per card (in memory and in `storage`) until its
 * outcome is on screen. Reaching that card again in any way (scan, typed code, last cards, a
 * customer's credit) shows that debit's notice and asks main about it, never a new Debit form;
 * so the screen never mints a second request id for a sale whose first outcome it has not shown.
 */
export function createGiftCardStore(
  api: KioskApi,
  connectivity: () => ConnectivityState | null = () => null,
  {
    storage = localConfirmationStorage(),
    recheckDelaysMs = RECHECK_DELAYS_MS,
  }: GiftCardStoreOptions = {},
): GiftCardStore {
  return createStore<GiftCardState>()((set, get) => {
    let lookupGeneration = 0;
    let reads = 0;
    let disposed = false;
    /** The service id of the card on screen (before its look-up answers, the code if it names one). */
    let onScreen: string | null = null;
    const sales = new Map<string, Sale>();
    const lastDelay = recheckDelaysMs[recheckDelaysMs.length - 1] ?? 0;
    /** The sale whose confirmation minted this request id: every view of a debit names it. */
    const saleOf = (view: DebitView): Sale | undefined => {
      const requestId = view.requestId?.toLowerCase();
      if (requestId === undefined) return undefined;
      for (const sale of sales.values()) {
        if (sale.confirmation.requestId.toLowerCase() === requestId) return sale;
      }
      return undefined;
    };

    const unshownOf = (): UnshownDebit[] =>
      [...sales.values()].map(({ confirmation }) => ({
        giftCardId: confirmation.giftCardId,
        amount: confirmation.amount,
      }));

    const reread = async (giftCardId: string) => {
      const mine = ++reads;
      const reply = await settle(api.getGiftCard({ giftCardId }));
      // The card on screen, or the one a reload left without its details yet.
      const shown = get().card?.id ?? get().cardId;
      if (mine !== reads || get().looking || shown !== giftCardId) return;
      // Only a fresh read may replace the balance: the service computes it, not the kiosk.
      if (reply.ok && reply.value.source === 'service') set({ card: reply.value });
    };

    const stopAsking = (sale: Sale) => {
      if (sale.timer !== undefined) clearTimeout(sale.timer);
      sale.timer = undefined;
    };

    /** Its outcome is on screen: the card may be debited again, by another request id. */
    const forget = (sale: Sale) => {
      stopAsking(sale);
      sales.delete(sale.confirmation.giftCardId);
      storage.remove(sale.confirmation.giftCardId);
      set({ unshown: unshownOf() });
    };

    /**
     * Puts the card's sale on screen when its card is the one on screen: its notice while the
     * outcome is unknown, else the outcome, which ends the sale.
     */
    const show = (giftCardId: string) => {
      const sale = sales.get(giftCardId);
      if (!sale || onScreen !== giftCardId) return;
      if (outcomeKnown(sale)) {
        forget(sale);
        if (sale.error !== null) {
          set({
            confirmation: null,
            lostReply: false,
            debiting: false,
            debit: null,
            delivery: null,
            replayed: false,
            debitError: sale.error,
          });
          return;
        }
        set({
          confirmation: null,
          lostReply: false,
          debiting: false,
          debit: sale.debit,
          delivery: sale.delivery,
          replayed: sale.replayed,
          debitError: null,
          amount: '',
        });
        if (sale.debit?.state === 'applied') void reread(giftCardId);
        return;
      }
      const firstSend = sale.sending && !sale.lost && sale.held === null && sale.debit === null;
      const { amount } = sale.confirmation;
      // Held for a person: "may already be stored", with main's reason (over an offline limit).
      const held = sale.held !== null || (sale.debit !== null && isHeldOverLimitView(sale.debit));
      set({
        confirmation: sale.confirmation,
        debiting: sale.sending,
        lostReply: held || (sale.lost && sale.debit === null),
        debit: held ? null : sale.debit,
        delivery: held ? null : sale.delivery,
        replayed: sale.replayed,
        debitError: sale.held,
        // The form shows the amount on its way; another is typed once this outcome is shown.
        ...(firstSend
          ? amountValue(get().amount) === amount
            ? {}
            : { amount: String(amount) }
          : { amount: '' }),
      });
    };

    const send = async (sale: Sale) => {
      const { giftCardId } = sale.confirmation;
      if (disposed || sale.sending || sales.get(giftCardId) !== sale) return;
      stopAsking(sale);
      sale.sending = true;
      show(giftCardId);
      const { confirmation } = sale;
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
      sale.sending = false;
      // Its outcome reached the screen meanwhile (an event): this reply adds nothing.
      if (disposed || sales.get(giftCardId) !== sale) return;
      if (reply.ok) {
        sale.lost = false;
        sale.held = null;
        sale.lostReplies = 0;
        sale.debit = laterView(sale.debit, reply.value.debit);
        sale.delivery = reply.value.delivery;
        sale.replayed = reply.value.replayed;
        // Stored, the service's answer not in yet: the events say it, and main is asked again
        // now and then in case one is missed.
        if (!outcomeKnown(sale)) sale.timer = setTimeout(() => void send(sale), lastDelay);
      } else if (isHeldOverLimit(reply.error)) {
        // Not refused, not taken: held for a person. The sale and its request id are kept (and
        // its confirmation in storage) until main gives the outcome a person recorded.
        sale.lost = false;
        sale.lostReplies = 0;
        sale.held = reply.error;
        sale.timer = setTimeout(() => void send(sale), lastDelay);
      } else if (mayBeStored(reply.error)) {
        // Never a fresh form here: the same request is sent again until main says what it is.
        sale.lost = true;
        const delay = recheckDelaysMs[Math.min(sale.lostReplies, recheckDelaysMs.length - 1)] ?? 0;
        sale.lostReplies += 1;
        sale.timer = setTimeout(() => void send(sale), delay);
      } else {
        // Refused before anything was stored: shown once its card is on screen, never resent.
        sale.error = reply.error;
        storage.remove(giftCardId);
      }
      show(giftCardId);
    };

    const newSale = (confirmation: DebitConfirmation, lost: boolean): Sale => ({
      confirmation,
      sending: false,
      lost,
      debit: null,
      delivery: null,
      replayed: false,
      error: null,
      held: null,
      timer: undefined,
      lostReplies: 0,
    });

    /** Staff reached this card again: its debit's notice (or outcome), and main asked at once. */
    const reopen = (giftCardId: string) => {
      const sale = sales.get(giftCardId);
      if (!sale) return;
      show(giftCardId);
      if (sales.get(giftCardId) === sale && !sale.sending) void send(sale);
    };

    const find = async (request: GetGiftCardRequest, shown: string) => {
      if (shown === '') return;
      const mine = ++lookupGeneration;
      reads++;
      // A credit names the service's id; a typed or scanned code often is one too.
      onScreen = 'giftCardId' in request ? request.giftCardId : request.code;
      set({ ...fresh, cardId: shown, looking: true });
      reopen(onScreen);
      const reply = await settle(api.getGiftCard(request));
      if (mine !== lookupGeneration) return;
      if (reply.ok) {
        const before = onScreen;
        onScreen = reply.value.id;
        set({ card: reply.value, looking: false });
        if (onScreen !== before) reopen(onScreen);
        void get().loadRecentCards();
      } else {
        set({ looking: false, lookupError: reply.error });
      }
    };

    // A reload came between confirmations and their outcomes: ask main about those same debits,
    // the newest one's card on screen again.
    const restored = storage.load();
    for (const confirmation of restored) {
      sales.set(confirmation.giftCardId, newSale(confirmation, true));
    }
    const latest = restored.at(-1);
    if (latest) {
      onScreen = latest.giftCardId;
      queueMicrotask(() => {
        if (onScreen === latest.giftCardId) void reread(latest.giftCardId);
        for (const sale of [...sales.values()]) void send(sale);
      });
    }

    return {
      ...fresh,
      unshown: unshownOf(),
      recentCards: [],
      loadRecentCards: async () => {
        const reply = await settle(api.listRecentCards({}));
        // A list that cannot be read is no reason to stop staff: the field still works.
        if (reply.ok) set({ recentCards: reply.value.cards });
      },
      ...(latest ? { cardId: latest.giftCardId, confirmation: latest, lostReply: true } : {}),
      setCardId: (cardId) => set({ cardId }),
      lookup: () => {
        const code = get().cardId.trim();
        return find({ code }, code);
      },
      openCard: (giftCardId) => find({ giftCardId }, giftCardId),
      refreshCard: () => {
        const { card, looking } = get();
        if (card && !looking) void reread(card.id);
      },
      setAmount: (amount) => set({ amount }),
      setReference: (reference) => set({ reference }),
      submitDebit: async () => {
        const { card, amount, reference, debiting, confirmation } = get();
        if (debiting) return;
        // A confirmation still without its outcome is sent again, never replaced by another.
        if (confirmation) {
          const sale = sales.get(confirmation.giftCardId);
          if (sale) await send(sale);
          return;
        }
        const value = amountValue(amount);
        if (!card || value === null) return;
        if (sales.has(card.id)) {
          reopen(card.id);
          return;
        }
        const next: DebitConfirmation = {
          requestId: crypto.randomUUID(),
          giftCardId: card.id,
          amount: value,
          ...(reference.trim() === '' ? {} : { reference: reference.trim() }),
          confirmedAt: new Date().toISOString(),
        };
        // Kept before it is sent: a reload from here on asks about this debit, not a new one.
        storage.save(next);
        const sale = newSale(next, false);
        sales.set(card.id, sale);
        set({ unshown: unshownOf(), debit: null, delivery: null, replayed: false });
        await send(sale);
      },
      checkDebit: async () => {
        const { confirmation } = get();
        const sale = confirmation ? sales.get(confirmation.giftCardId) : undefined;
        if (sale && !sale.sending) await send(sale);
      },
      applyEvent: (event) => {
        if (!('debit' in event)) return;
        const view = event.debit;
        const sale = saleOf(view);
        if (sale) {
          // Withdrawn over an offline limit when its wait ended (nothing reached the service):
          // the reply, or asking again, gives that refusal with its limit; "cancelled" would not.
          if (isWithdrawnView(view)) return;
          // Held for a person over an offline limit: still its notice, not "stored offline".
          if (isHeldOverLimitView(view)) {
            sale.held ??= {
              code: 'OUTBOX_OVER_LIMIT_OUTCOME_UNKNOWN',
              message: view.lastError?.message ?? 'held for a person: its outcome is unknown',
            };
            show(sale.confirmation.giftCardId);
            return;
          }
          // While its request is in flight, main's wait decides what a debit without its answer
          // becomes: stored offline (`acceptedOffline`) or refused over an offline limit. An
          // attempt that failed meanwhile is not that decision: "stored offline" shown on it
          // was issue 35 (0). The reply says it.
          const open = view.state === 'pending' || view.state === 'sending';
          if (sale.sending && open && !view.acceptedOffline && view.lastError !== null) return;
          // A lost reply's debit named by main: stored, and from now on followed by its events.
          // A held one no longer held (a person recorded its outcome): that outcome is shown.
          sale.held = null;
          sale.debit = laterView(sale.debit, view);
          show(sale.confirmation.giftCardId);
          return;
        }
        // The outcome on screen, its sale over: the events go on telling what became of it.
        const current = get().debit;
        if (!current || current.id !== view.id) return;
        const next = laterView(current, view);
        if (next === current) return;
        set({ debit: next });
        if (next.state === 'applied' && current.state !== 'applied') void reread(next.giftCardId);
      },
      clear: () => {
        lookupGeneration++;
        reads++;
        onScreen = null;
        set(fresh);
      },
      dispose: () => {
        disposed = true;
        for (const sale of sales.values()) stopAsking(sale);
      },
    };
  });
}
