import {
  type DebitState,
  openDebitStates,
  uncollectedDebitStates,
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

/** Refused, failed or expired. */
export const UNCOLLECTED = stateIn(uncollectedDebitStates);
