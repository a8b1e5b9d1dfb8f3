import type { Migration } from '../../storage/index.ts';

/** Shipped: never edit it, add a later migration instead (kiosks in the field have run it). */
export const outcomeEvidenceMigration: Migration = {
  version: 14,
  name: 'outbox: keys sent as a fact, evidence of "not applied", debits held as outcome unknown',
  up: (db) => {
    // What the outbox knows about a debit whose earlier attempt may have reached the service, as
    // facts written when they happen, never inferred from clock comparisons afterwards.
    //   key_sent_at          epoch ms (outbox clock): the row's current key went out, written in
    //                        the transaction that marks it `sending`, before the first byte; NULL:
    //                        that key never left the kiosk (a rebuild may then change its body)
    //   key_sent_digest      SHA-256 of the body the current key first went out with; NULL when
    //                        unknown (rows sent before this migration)
    //   not_applied_evidence answer | usages | staff: the positive evidence that no attempt so far
    //                        was applied (the service's definitive answer to that key, the card's
    //                        usages verified readable, or a person); not_applied_at when
    //   outcome_unknown_since / outcome_unknown_code
    //                        held for a person: an attempt may have reached the service and
    //                        nothing proves whether it was applied; never resent under a new key,
    //                        never expired as "never applied", never resent past the key window
    //   balance_before_cents / balance_before_at   the card as this kiosk last read it before the
    //                        first attempt (evidence to show, never proof)
    //   balance_now_cents / balance_now_at         the card as read from the service while held
    //   staff_outcome        applied | not_applied, with staff_outcome_by (who) and _at (when)
    //   outbox_usage_checks  the contract check's verdict on the card's usages, per fingerprint of
    //                        the profile's usage reading: verified 1 only when it read, on a card
    //                        that has usages, each usage's reference; an empty list proves nothing
    // Rows sent before this migration: their current key counts as sent (attempts > 0), which is
    // the side that never reuses a key with another body.
    db.exec(`
        ALTER TABLE outbox_debits ADD COLUMN key_sent_at INTEGER;
        ALTER TABLE outbox_debits ADD COLUMN key_sent_digest TEXT;
        ALTER TABLE outbox_debits ADD COLUMN not_applied_evidence TEXT
          CHECK (not_applied_evidence IN ('answer', 'usages', 'staff'));
        ALTER TABLE outbox_debits ADD COLUMN not_applied_at INTEGER;
        ALTER TABLE outbox_debits ADD COLUMN outcome_unknown_since INTEGER;
        ALTER TABLE outbox_debits ADD COLUMN outcome_unknown_code TEXT;
        ALTER TABLE outbox_debits ADD COLUMN balance_before_cents INTEGER;
        ALTER TABLE outbox_debits ADD COLUMN balance_before_at INTEGER;
        ALTER TABLE outbox_debits ADD COLUMN balance_now_cents INTEGER;
        ALTER TABLE outbox_debits ADD COLUMN balance_now_at INTEGER;
        ALTER TABLE outbox_debits ADD COLUMN staff_outcome TEXT
          CHECK (staff_outcome IN ('applied', 'not_applied'));
        ALTER TABLE outbox_debits ADD COLUMN staff_outcome_by TEXT;
        ALTER TABLE outbox_debits ADD COLUMN staff_outcome_at INTEGER;
        UPDATE outbox_debits SET key_sent_at = coalesce(last_attempt_at, updated_at)
          WHERE attempts > 0;
        CREATE TABLE outbox_usage_checks (
          fingerprint   TEXT    PRIMARY KEY,
          profile_name  TEXT    NOT NULL,
          verified      INTEGER NOT NULL CHECK (verified IN (0, 1)),
          detail        TEXT    NOT NULL,
          checked_at    INTEGER NOT NULL
        ) STRICT;
      `);
  },
};
