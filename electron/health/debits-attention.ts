import type { DebitState, Outbox } from '../outbox/index.ts';
import { count, euros, sumOf } from './wording.ts';
import type { Problem } from './trouble.ts';

/**
 * The debits that need attention (`Outbox.attention`, the alert and the day report's "needs
 * attention"): refused, failed or expired after the customer may have left, and not resolved by
 * staff yet: money not collected until someone acts. Only local ids, amounts and codes: no card
 * number.
 */

export interface AttentionDebit {
  readonly id: number;
  readonly state: DebitState;
  readonly amount: number;
  readonly acceptedOffline: boolean;
  readonly code: string | null;
  readonly createdAt: string;
}

export interface AttentionReport {
  readonly count: number;
  /** EUR. */
  readonly amount: number;
  /** Oldest first, at most `shown`. */
  readonly debits: readonly AttentionDebit[];
}

const shown = 20;

export function attentionReport(outbox: Outbox): {
  attention: AttentionReport;
  problems: Problem[];
} {
  const debits = outbox.attention(1_000);
  const attention: AttentionReport = {
    count: debits.length,
    amount: sumOf(debits),
    debits: debits.slice(0, shown).map((debit) => ({
      id: debit.id,
      state: debit.state,
      amount: debit.amount,
      acceptedOffline: debit.acceptedOffline,
      code: debit.lastErrorCode,
      createdAt: new Date(debit.createdAt).toISOString(),
    })),
  };
  if (debits.length === 0) return { attention, problems: [] };
  const states = [...new Set(debits.map((debit) => debit.state))].join('/');
  return {
    attention,
    problems: [
      {
        class: 'debit-attention',
        code: 'DEBITS_NEED_ATTENTION',
        message: `${count(debits.length, 'debit')} of ${euros(attention.amount)} ${states} and not resolved: that money was not collected`,
        next: "staff resolve each on the kiosk's gift-card screen (collected another way, or written off); the list: kioskctl outbox list --state refused (failed, expired)",
      },
    ],
  };
}
