import type { DebitView } from '../../shared/ipc/gift-cards.ts';

/** As many of each list as main gives in one `listDebits` (its own maximum). */
export const OUTBOX_LIST_LIMIT = 200;

/** The outbox's two lists as main reads them: oldest first, at most `OUTBOX_LIST_LIMIT` each. */
export interface OutboxLists {
  /** Pending and sending. */
  readonly open: readonly DebitView[];
  /** Refused, failed or expired and not yet acknowledged by staff. */
  readonly attention: readonly DebitView[];
}

/**
 * The lists after an event about `debit`: it leaves the list it was in and joins the one its
 * state puts it in, where main's query would list it. The event carries the whole row, so the
 * lists follow every event without asking main for them again.
 */
export function placeDebit(lists: OutboxLists, debit: DebitView): OutboxLists {
  const open = debit.state === 'pending' || debit.state === 'sending';
  const needsAttention =
    (debit.state === 'refused' || debit.state === 'failed' || debit.state === 'expired') &&
    !debit.acknowledged;
  return {
    open: place(lists.open, debit, open),
    attention: place(lists.attention, debit, needsAttention),
  };
}

function place(list: readonly DebitView[], debit: DebitView, member: boolean): DebitView[] {
  const others = list.filter((entry) => entry.id !== debit.id);
  if (!member) return others.length === list.length ? (list as DebitView[]) : others;
  const at = others.findIndex((entry) => entry.id > debit.id);
  const placed =
    at === -1 ? [...others, debit] : [...others.slice(0, at), debit, ...others.slice(at)];
  return placed.slice(0, OUTBOX_LIST_LIMIT);
}
