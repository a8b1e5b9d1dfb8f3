import type { DebitState, Outbox } from '../outbox/index.ts';
import { count, euros, sumOf } from './wording.ts';
import type { Problem } from './trouble.ts';

/**
 * Debits the service refused, that failed or expired, after the customer may have left, and that
 * staff have not resolved yet (`Outbox.unresolved`, the day report's "not resolved"): money not
 * collected until someone acts. Only local ids, amounts and codes: no card number.
 */

export interface AttentionDebit {
  readonly id: number;
  readonly state: DebitState;
  readonly amount: number;
  readonly acceptedOffline: boolean;
  readonly code: string | null;
  readonly createdAt: string;
}

export interface DebitsNeedingAttention {
  readonly count: number;
  /** EUR. */
  readonly amount: number;
  /** Oldest first, at most `shown`. */
  readonly debits: readonly AttentionDebit[];
}

const shown = 20;

export function debitsNeedingAttention(outbox: Outbox): {
  attention: DebitsNeedingAttention;
  problems: Problem[];
} {
  const unresolved = outbox.unresolved(1_000);
  const attention: DebitsNeedingAttention = {
    count: unresolved.length,
    amount: sumOf(unresolved),
    debits: unresolved.slice(0, shown).map((debit) => ({
      id: debit.id,
      state: debit.state,
      amount: debit.amount,
      acceptedOffline: debit.acceptedOffline,
      code: debit.lastErrorCode,
      createdAt: new Date(debit.createdAt).toISOString(),
    })),
  };
  if (unresolved.length === 0) return { attention, problems: [] };
  const states = [...new Set(unresolved.map((debit) => debit.state))].join('/');
  return {
    attention,
    problems: [
      {
        class: 'debit-attention',
        code: 'DEBITS_NEED_ATTENTION',
        message: `${count(unresolved.length, 'debit')} of ${euros(attention.amount)} ${states} and not resolved: that money was not collected`,
        next: "staff resolve each on the kiosk's gift-card screen (collected another way, or written off); the list: kioskctl outbox list --state refused (failed, expired)",
      },
    ],
  };
}
