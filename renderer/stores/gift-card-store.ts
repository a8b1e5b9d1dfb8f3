import { createStore, type StoreApi } from 'zustand/vanilla';
import type { GiftCard } from '../../shared/api/gift-cards.ts';
import type { KioskApi } from '../../shared/ipc/contract.ts';
import type { IpcError } from '../../shared/ipc/errors.ts';
import type { OutboxChanged } from '../../shared/ipc/events.ts';
import type {
  ConnectivityState,
  DebitGiftCardReply,
  DebitView,
} from '../../shared/ipc/gift-cards.ts';
import { amountValue } from '../input/amount-entry.ts';
import { settle } from './call.ts';

/** How long main may wait for the service before replying: most answers come well within it. */
export const DEBIT_WAIT_MS = 8_000;

export interface GiftCardState {
  readonly cardId: string;
  readonly card: GiftCard | null;
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
  setCardId(cardId: string): void;
  lookup(): Promise<void>;
  setAmount(amount: string): void;
  setReference(reference: string): void;
  submitDebit(): Promise<void>;
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
} as const;

/**
 * `connectivity` is main's last word on the service: known offline, the debit is stored at once
 * rather than after a wait for an answer that cannot come.
 */
export function createGiftCardStore(
  api: KioskApi,
  connectivity: () => ConnectivityState | null = () => null,
): GiftCardStore {
  return createStore<GiftCardState>()((set, get) => {
    let lookupGeneration = 0;
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
      if (mine !== lookupGeneration || get().card?.id !== giftCardId) return;
      // Only a fresh read may replace the balance: the service computes it, not the kiosk.
      if (reply.ok) set({ card: reply.value });
    };

    return {
      ...fresh,
      setCardId: (cardId) => set({ cardId }),
      lookup: async () => {
        const giftCardId = get().cardId.trim();
        if (giftCardId === '') return;
        const mine = ++lookupGeneration;
        set({ ...fresh, cardId: giftCardId, looking: true });
        const reply = await settle(api.getGiftCard({ giftCardId }));
        if (mine !== lookupGeneration) return;
        if (reply.ok) set({ card: reply.value, looking: false });
        else set({ looking: false, lookupError: reply.error });
      },
      setAmount: (amount) => set({ amount }),
      setReference: (reference) => set({ reference }),
      submitDebit: async () => {
        const { card, amount, reference, debiting } = get();
        const value = amountValue(amount);
        if (!card || value === null || debiting) return;
        set({ debiting: true, debit: null, delivery: null, debitError: null });
        const reply = await settle(
          api.debitGiftCard({
            giftCardId: card.id,
            amount: value,
            ...(reference.trim() === '' ? {} : { reference: reference.trim() }),
            policy: 'prefer_online',
            waitMs: connectivity() === 'offline' ? 0 : DEBIT_WAIT_MS,
          }),
        );
        if (get().card?.id !== card.id) return;
        if (!reply.ok) {
          set({ debiting: false, debitError: reply.error });
          return;
        }
        const debit = newest(reply.value.debit);
        set({ debiting: false, debit, delivery: reply.value.delivery, amount: '' });
        if (debit.state === 'applied') await reread(card.id);
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
        set(fresh);
      },
    };
  });
}
