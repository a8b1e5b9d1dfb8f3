import type { Migration } from '../../storage/index.ts';

/** Shipped: never edit it, add a later migration instead (kiosks in the field have run it). */
export const resolutionsMigration: Migration = {
  version: 7,
  name: 'outbox: how staff settled a debit refused after the fact',
  up: (db) => {
    // A debit refused, failed or expired once the customer had left is money not collected:
    // it stays an alert until staff record what they did about it, and the end-of-day report
    // shows that record. NULL until then.
    //   staff_resolution          collected_other_way | could_not_collect
    //   staff_resolution_method   cash | card | other (collected_other_way only)
    //   staff_resolved_at         epoch ms, the outbox clock
    db.exec(`
        ALTER TABLE outbox_debits ADD COLUMN staff_resolution TEXT
          CHECK (staff_resolution IN ('collected_other_way', 'could_not_collect'));
        ALTER TABLE outbox_debits ADD COLUMN staff_resolution_method TEXT
          CHECK (staff_resolution_method IN ('cash', 'card', 'other'));
        ALTER TABLE outbox_debits ADD COLUMN staff_resolved_at INTEGER;
      `);
  },
};
