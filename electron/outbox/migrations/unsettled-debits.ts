import type { PreservedRows } from '../../storage/index.ts';
import { OPEN } from '../state-sql.ts';

/**
 * What no migration, of any service, may drop or rewrite: a debit not settled yet, by the columns
 * that make it what it is (its key and its exact body). Losing one loses a customer's payment, or
 * resends it with another body under the same key.
 */
export const unsettledDebits: PreservedRows = {
  name: 'unsettled debits',
  table: 'outbox_debits',
  where: OPEN,
  columns: ['id', 'idempotency_key', 'gift_card_id', 'request_body', 'created_at'],
};
