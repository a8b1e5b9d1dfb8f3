import type { Migration } from '../../storage/index.ts';

/** Shipped: never edit it, add a later migration instead (kiosks in the field have run it). */
export const settledAtMigration: Migration = {
  version: 15,
  name: 'outbox: resolved_at and resolved_by are settled_at and settled_by',
  up: (db) => {
    // "Resolved" meant two things: the debit reached its final state (by the service's answer, a
    // reconciliation, staff or the max-age rule) and staff recorded what they did about it
    // (staff_resolution, migration 007). The first is "settled" from here on, so a refused debit
    // is no longer "resolved" and "unresolved" at once. Same values, new names:
    //   settled_at   epoch ms (outbox clock) the row reached a final state; NULL while open
    //   settled_by   service | reconciliation | staff | expiry
    // Archived rows keep every column by name (migration 013): their JSON is renamed the same way,
    // or a row read back from the archive would lose both.
    db.exec(`
        ALTER TABLE outbox_debits RENAME COLUMN resolved_at TO settled_at;
        ALTER TABLE outbox_debits RENAME COLUMN resolved_by TO settled_by;
        UPDATE outbox_debits_archive SET debit = json_remove(
            json_set(debit, '$.settled_at', json_extract(debit, '$.resolved_at'),
                            '$.settled_by', json_extract(debit, '$.resolved_by')),
            '$.resolved_at', '$.resolved_by');
      `);
  },
};
