import { expect, test } from 'vitest';
import {
  OUTBOX_LIST_LIMIT,
  type OutboxLists,
  placeDebit,
} from '../../../renderer/stores/outbox-lists.ts';
import { debit } from '../support/fixtures.ts';

const ids = (lists: ReturnType<typeof placeDebit>) => ({
  open: lists.open.map((entry) => entry.id),
  attention: lists.attention.map((entry) => entry.id),
});

test('a debit moves to the list its state puts it in, where main would list it (by id)', () => {
  let lists: OutboxLists = { open: [debit({ id: 2 }), debit({ id: 5 })], attention: [] };
  lists = placeDebit(lists, debit({ id: 3, state: 'sending' }));
  expect(ids(lists)).toEqual({ open: [2, 3, 5], attention: [] });
  lists = placeDebit(lists, debit({ id: 3, state: 'refused' }));
  expect(ids(lists)).toEqual({ open: [2, 5], attention: [3] });
  // Acknowledged by staff: it leaves the alert.
  lists = placeDebit(lists, debit({ id: 3, state: 'refused', acknowledged: true }));
  expect(ids(lists)).toEqual({ open: [2, 5], attention: [] });
  lists = placeDebit(lists, debit({ id: 5, state: 'applied' }));
  expect(ids(lists)).toEqual({ open: [2], attention: [] });
});

test('the row is replaced by the newer one, and a full list stays as long as main’s', () => {
  const full = Array.from({ length: OUTBOX_LIST_LIMIT }, (_, index) => debit({ id: index + 1 }));
  const lists = placeDebit({ open: full, attention: [] }, debit({ id: 1, state: 'sending' }));
  expect(lists.open[0]).toMatchObject({ id: 1, state: 'sending' });
  const newer = placeDebit(lists, debit({ id: OUTBOX_LIST_LIMIT + 1 }));
  expect(newer.open).toHaveLength(OUTBOX_LIST_LIMIT);
  expect(newer.open.at(-1)?.id).toBe(OUTBOX_LIST_LIMIT);
});
