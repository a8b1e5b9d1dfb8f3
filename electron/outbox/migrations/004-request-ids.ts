import type { Migration } from '../../storage/index.ts';

/** Shipped: never edit it, add a later migration instead (kiosks in the field have run it). */
export const requestIdsMigration: Migration = {
  version: 4,
  name: 'outbox: request ids, one row per logical debit',
  up: (db) => {
    // The caller's id for one logical debit (staff's confirmation, a technician's command): a
    // retry after a lost reply carries it again and gets the same row back. Rows accepted
    // before this migration have none. The unique index is what decides between two processes
    // enqueuing the same request at once: only one insert can succeed.
    db.exec(`
        ALTER TABLE outbox_debits ADD COLUMN request_id TEXT;
        CREATE UNIQUE INDEX outbox_debits_request_id ON outbox_debits (request_id)
          WHERE request_id IS NOT NULL;
      `);
  },
};
