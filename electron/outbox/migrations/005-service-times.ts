import type { Migration } from '../../storage/index.ts';

/** Shipped: never edit it, add a later migration instead (kiosks in the field have run it). */
export const serviceTimesMigration: Migration = {
  version: 5,
  name: 'outbox: debit times on the service clock',
  up: (db) => {
    // Epoch ms on the service's clock (its Date header carried by the kiosk's monotonic clock),
    // each a bound in the direction that keeps a decision safe; NULL when the process had no
    // dated reply to go by. The key-retention window and the maximum age are judged on these,
    // never on the kiosk's wall clock alone (which RTC drift or a technician can step by days).
    //   created_service_at          at the latest, when the debit was accepted (its age is at least...)
    //   attempt_service_earliest/   the start of the last attempt, both bounds (a request may be
    //     attempt_service_latest      processed for a while after the kiosk gave up on it)
    //   reached_service_at          at the earliest, the first attempt that may have reached the
    //                               service: its key-retention window counts from there
    db.exec(`
        ALTER TABLE outbox_debits ADD COLUMN created_service_at INTEGER;
        ALTER TABLE outbox_debits ADD COLUMN attempt_service_earliest INTEGER;
        ALTER TABLE outbox_debits ADD COLUMN attempt_service_latest INTEGER;
        ALTER TABLE outbox_debits ADD COLUMN reached_service_at INTEGER;
      `);
  },
};
