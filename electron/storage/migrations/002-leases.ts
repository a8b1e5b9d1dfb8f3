import type { Migration } from '../migration-runner.ts';

/** Shipped: never edit it, add a later migration instead (kiosks in the field have run it). */
export const leasesMigration: Migration = {
  version: 2,
  name: 'leases: one worker per data directory',
  up: (db) => {
    // A named lease with an expiry (lease.ts), so two processes on one data directory (the kiosk
    // app and kioskctl) never run the same worker at once, and a crashed holder is replaced in time.
    db.exec(`
        CREATE TABLE leases (
          name        TEXT    PRIMARY KEY,
          owner       TEXT    NOT NULL,
          acquired_at INTEGER NOT NULL,
          expires_at  INTEGER NOT NULL
        ) STRICT;
      `);
  },
};
