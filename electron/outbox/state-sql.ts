import {
  type DebitState,
  attentionDebitStates,
  openDebitStates,
} from '../../shared/ipc/gift-cards.ts';

/**
 * The state sets of shared/ipc/gift-cards.ts as SQL conditions on `state`, written once. The text
 * is exactly the partial indexes' conditions (`outbox_debits_open`, migration 001), which the
 * planner matches word for word: prefix a table alias as `d.${OPEN}`.
 */
function stateIn(states: readonly DebitState[]): string {
  return `state IN (${states.map((state) => `'${state}'`).join(', ')})`;
}

/** Pending or sending. */
export const OPEN = stateIn(openDebitStates);

/** Refused, failed or expired: the states in which a debit needs attention until resolved. */
export const ATTENTION_STATES = stateIn(attentionDebitStates);
