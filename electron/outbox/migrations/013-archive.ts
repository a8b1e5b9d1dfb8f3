import type { Migration } from '../../storage/index.ts';

/** Shipped: never edit it, add a later migration instead (kiosks in the field have run it). */
export const archiveMigration: Migration = {
  version: 13,
  name: 'outbox: an archive for settled debits past their retention',
  up: (db) => {
    // Settled debits older than the retention move here (archive.ts), so the sender's and the
    // screens' queries over outbox_debits stay as fast at a million settled rows as at a few
    // hundred, while the end-of-day report and kioskctl still read them. Each row keeps every
    // column it had, by name, as JSON (`debit`), and the rows of other tables that referenced it
    // (its retired keys: `related`, by table), so columns added by later migrations need no
    // change here. The columns beside it are what the readers look rows up by.
    //   id            the row's id in outbox_debits (AUTOINCREMENT there: never handed out again)
    //   archived_at   epoch ms, the outbox clock
    // A request id stays taken once its row is archived: a retry months later gets that debit
    // back, never a second one (the trigger makes the insert a no-op the outbox already handles).
    // outbox_debits_settled finds the candidates without reading the open rows.
    db.exec(`
        CREATE TABLE outbox_debits_archive (
          id          INTEGER PRIMARY KEY,
          state       TEXT    NOT NULL,
          created_at  INTEGER NOT NULL,
          request_id  TEXT,
          debit       TEXT    NOT NULL CHECK (json_valid(debit)),
          related     TEXT    NOT NULL CHECK (json_valid(related)),
          archived_at INTEGER NOT NULL
        ) STRICT;
        CREATE UNIQUE INDEX outbox_debits_archive_request_id ON outbox_debits_archive (request_id)
          WHERE request_id IS NOT NULL;
        CREATE INDEX outbox_debits_archive_state ON outbox_debits_archive (state, id);
        CREATE INDEX outbox_debits_archive_created ON outbox_debits_archive (created_at, id);
        CREATE INDEX outbox_debits_settled ON outbox_debits (created_service_at)
          WHERE state IN ('applied', 'cancelled', 'refused', 'failed', 'expired');
        CREATE TRIGGER outbox_debits_archived_request_id BEFORE INSERT ON outbox_debits
          WHEN NEW.request_id IS NOT NULL AND EXISTS (
            SELECT 1 FROM outbox_debits_archive WHERE request_id = NEW.request_id)
        BEGIN
          SELECT RAISE(IGNORE);
        END;
      `);
  },
};
