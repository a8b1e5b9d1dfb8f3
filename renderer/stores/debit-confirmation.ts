import { z } from 'zod';
import { DebitRequestId } from '../../shared/ipc/gift-cards.ts';
import { RecordId } from '../../shared/ipc/common.ts';
import { lazySchema } from '../../shared/ipc/lazy-schema.ts';

/**
 * A debit staff confirmed and have not seen the outcome of yet: its request id names the one
 * logical debit every retry sends again. Kept in the tab's sessionStorage, so a renderer reload
 * between the confirmation and its outcome asks main about the same debit instead of losing it
 * (and staff debiting again). Built on first use, like the contract's schemas: not at the page's start.
 */
export const DebitConfirmation = lazySchema(() =>
  z.object({
    requestId: DebitRequestId,
    giftCardId: RecordId,
    amount: z.number().positive(),
    reference: z.string().optional(),
  }),
);
export type DebitConfirmation = z.infer<typeof DebitConfirmation>;

export interface ConfirmationStorage {
  load(): DebitConfirmation | null;
  save(confirmation: DebitConfirmation | null): void;
}

const KEY = 'kiosk.debitConfirmation';

/** The tab's sessionStorage; where storage is disabled, nothing survives a reload. */
export function sessionConfirmationStorage(): ConfirmationStorage {
  const storage = (): Storage | undefined => {
    try {
      return typeof window === 'undefined' ? undefined : window.sessionStorage;
    } catch {
      return undefined;
    }
  };
  return {
    load: () => {
      try {
        const text = storage()?.getItem(KEY);
        if (text === null || text === undefined) return null;
        const parsed = DebitConfirmation.safeParse(JSON.parse(text));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
    save: (confirmation) => {
      try {
        if (confirmation === null) storage()?.removeItem(KEY);
        else storage()?.setItem(KEY, JSON.stringify(confirmation));
      } catch {
        // Storage full or disabled: the confirmation still lives in memory.
      }
    },
  };
}
