import type { Migration } from '../../storage/index.ts';

/** Shipped: never edit it, add a later migration instead (kiosks in the field have run it). */
export const debitsMigration: Migration = {
  version: 1,
  name: 'outbox: durable gift-card debits',
  up: (db) => {
    // Money is kept in integer cents for sums and limits; the request body is the exact JSON
    // text that goes on the wire, written once and never rewritten, so a resend is byte-identical.
    // No customer personal data: a card id, an amount and our own reference only.
    db.exec(`
        CREATE TABLE outbox_debits (
          id                 INTEGER PRIMARY KEY AUTOINCREMENT,
          idempotency_key    TEXT    NOT NULL UNIQUE,
          gift_card_id       TEXT    NOT NULL,
          request_body       TEXT    NOT NULL,
          amount_cents       INTEGER NOT NULL CHECK (amount_cents > 0),
          reference          TEXT    NOT NULL,
          policy             TEXT    NOT NULL CHECK (policy IN ('prefer_online', 'require_online')),
          accepted_offline   INTEGER NOT NULL CHECK (accepted_offline IN (0, 1)),
          state              TEXT    NOT NULL CHECK (state IN
                               ('pending', 'sending', 'applied', 'refused', 'failed', 'expired', 'cancelled')),
          attempts           INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
          created_at         INTEGER NOT NULL,
          updated_at         INTEGER NOT NULL,
          first_attempt_at   INTEGER,
          last_attempt_at    INTEGER,
          -- The start of the first attempt that may have reached the service (anything but a
          -- request surely never sent): the service's key-retention window counts from there.
          may_have_reached_at INTEGER,
          next_attempt_at    INTEGER NOT NULL,
          last_error_code    TEXT,
          last_error_message TEXT,
          reply              TEXT,
          new_balance        REAL,
          resolved_at        INTEGER,
          resolved_by        TEXT CHECK (resolved_by IN ('service', 'reconciliation', 'staff', 'expiry')),
          -- Staff saw a refused, failed or expired debit: it no longer needs attention.
          acknowledged_at    INTEGER
        ) STRICT;
        -- The sender's working set: the head of each card's queue (FIFO per card).
        CREATE INDEX outbox_debits_open ON outbox_debits (gift_card_id, id)
          WHERE state IN ('pending', 'sending');
        CREATE INDEX outbox_debits_state ON outbox_debits (state, id);
      `);
  },
};
