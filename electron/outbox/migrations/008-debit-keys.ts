import type { Migration } from '../../storage/index.ts';

/** Shipped: never edit it, add a later migration instead (kiosks in the field have run it). */
export const debitKeysMigration: Migration = {
  version: 8,
  name: 'outbox: the idempotency keys a held debit used before its body was rebuilt',
  up: (db) => {
    // A debit the service refused for its shape (400) or the account's scopes (403) is held, and
    // sent again once an administrator fixed the integration profile: its body is rebuilt, and a
    // changed body needs a new Idempotency-Key (the old key with another body is a 409). Every key
    // a row used stays here with the exact body it went with, so a technician can match any
    // request the service logged. The row keeps its reference: the card's usages find it whichever
    // key applied it.
    //   outbox_debit_keys.replaced_at   epoch ms (outbox clock) when the key was retired
    //   outbox_debit_keys.may_have_reached  1 when a request under it may have reached the service
    //   outbox_debits.shop_id           the shop the debit was accepted for, so a body rebuilt
    //                                   with another profile carries the same one (NULL: none)
    //   outbox_debits.older_key_reached 1 when a retired key may have reached the service: the
    //                                   card's usages are read before every send under a newer
    //                                   key (its own retention window cannot protect the older)
    // Rows accepted before this migration were built by the default body, `shopId` at its top.
    db.exec(`
        CREATE TABLE outbox_debit_keys (
          debit_id          INTEGER NOT NULL REFERENCES outbox_debits (id),
          idempotency_key   TEXT    NOT NULL UNIQUE,
          request_body      TEXT    NOT NULL,
          first_used_at     INTEGER,
          replaced_at       INTEGER NOT NULL,
          may_have_reached  INTEGER NOT NULL CHECK (may_have_reached IN (0, 1))
        ) STRICT;
        CREATE INDEX outbox_debit_keys_debit ON outbox_debit_keys (debit_id, replaced_at);
        ALTER TABLE outbox_debits ADD COLUMN shop_id TEXT;
        ALTER TABLE outbox_debits ADD COLUMN older_key_reached INTEGER NOT NULL DEFAULT 0
          CHECK (older_key_reached IN (0, 1));
        UPDATE outbox_debits SET shop_id = json_extract(request_body, '$.shopId')
          WHERE json_valid(request_body) AND json_type(request_body, '$.shopId') = 'text';
      `);
  },
};
