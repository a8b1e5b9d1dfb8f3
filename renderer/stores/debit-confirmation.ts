import { z } from 'zod';
import { DebitRequestId } from '../../shared/ipc/gift-cards.ts';
import { IsoTime, RecordId } from '../../shared/ipc/common.ts';
import { lazySchema } from '../../shared/ipc/lazy-schema.ts';

/**
 * A debit staff confirmed and have not seen the outcome of yet: its request id names the one
 * logical debit every retry sends again. One per card, kept in the kiosk's localStorage under the
 * card's id, so a reload, a navigation, an idle reset or a restart of the app between the
 * confirmation and its outcome asks main about the same debit instead of losing it (and staff
 * debiting the card again). Built on first use, like the contract's schemas: not at the page's start.
 */
export const DebitConfirmation = lazySchema(() =>
  z.object({
    requestId: DebitRequestId,
    giftCardId: RecordId,
    amount: z.number().positive(),
    reference: z.string().optional(),
    /** When staff confirmed it (kept confirmations are reopened newest last). */
    confirmedAt: IsoTime.optional(),
  }),
);
export type DebitConfirmation = z.infer<typeof DebitConfirmation>;

export interface ConfirmationStorage {
  /** Every confirmation kept, oldest first. */
  load(): DebitConfirmation[];
  /** Keeps this confirmation as its card's (replacing any other of that card). */
  save(confirmation: DebitConfirmation): void;
  /** The card's confirmation is over (its outcome on screen, or nothing was stored): forgotten. */
  remove(giftCardId: string): void;
}

const PREFIX = 'kiosk.debitConfirmation:';
/** Where a release before per-card keys kept its one confirmation (the tab's sessionStorage). */
const LEGACY_KEY = 'kiosk.debitConfirmation';

function storageOf(name: 'localStorage' | 'sessionStorage'): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window[name];
  } catch {
    return undefined;
  }
}

function parse(text: string | null | undefined): DebitConfirmation | null {
  if (text === null || text === undefined) return null;
  try {
    const parsed = DebitConfirmation.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const order = (confirmation: DebitConfirmation) => confirmation.confirmedAt ?? '';

/**
 * The kiosk's localStorage (its session partition persists it across restarts), one key per
 * card: two windows of the browser host never overwrite each other's confirmations. Where storage
 * is disabled, a confirmation lives in memory only.
 */
export function localConfirmationStorage(): ConfirmationStorage {
  return {
    load: () => {
      const storage = storageOf('localStorage');
      const kept: DebitConfirmation[] = [];
      try {
        // A page reloaded across the upgrade: its confirmation moves to the card's key.
        const legacy = storageOf('sessionStorage');
        const moved = parse(legacy?.getItem(LEGACY_KEY));
        if (moved) storage?.setItem(PREFIX + moved.giftCardId, JSON.stringify(moved));
        legacy?.removeItem(LEGACY_KEY);
        for (let index = 0; index < (storage?.length ?? 0); index++) {
          const key = storage?.key(index);
          if (!key?.startsWith(PREFIX)) continue;
          const confirmation = parse(storage?.getItem(key));
          if (confirmation && PREFIX + confirmation.giftCardId === key) kept.push(confirmation);
        }
      } catch {
        // Unreadable storage: nothing to reopen.
      }
      return kept.sort((a, b) => order(a).localeCompare(order(b)));
    },
    save: (confirmation) => {
      try {
        storageOf('localStorage')?.setItem(
          PREFIX + confirmation.giftCardId,
          JSON.stringify(confirmation),
        );
      } catch {
        // Storage full or disabled: the confirmation still lives in memory.
      }
    },
    remove: (giftCardId) => {
      try {
        storageOf('localStorage')?.removeItem(PREFIX + giftCardId);
      } catch {
        // Disabled storage kept nothing.
      }
    },
  };
}
