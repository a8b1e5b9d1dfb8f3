import type { Migration } from '../../storage/index.ts';

/** Shipped: never edit it, add a later migration instead (kiosks in the field have run it). */
export const attentionIndexMigration: Migration = {
  version: 16,
  name: 'outbox: an index of the debits needing attention',
  up: (db) => {
    // The screens' attention list (refused, failed or expired, not acknowledged) and the alert's
    // unresolved list. Through the (state, id) index they read every refused, failed or expired
    // row the table holds, acknowledged or not, and sorted them by id before the LIMIT. Here the
    // unacknowledged ones are one range (acknowledged_at IS NULL) already in id order, so a page
    // reads that page. (An index on (id) alone with both conditions in its WHERE is not chosen by
    // SQLite's planner over the state index, which it can search by equality.)
    db.exec(`
        CREATE INDEX outbox_debits_attention ON outbox_debits (acknowledged_at, id)
          WHERE state IN ('refused', 'failed', 'expired');
      `);
  },
};
