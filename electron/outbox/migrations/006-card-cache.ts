import type { Migration } from '../../storage/index.ts';

/** Shipped: never edit it, add a later migration instead (kiosks in the field have run it). */
export const cardCacheMigration: Migration = {
  version: 6,
  name: 'outbox: the last values read of each gift card',
  up: (db) => {
    // What the kiosk last read of a card, so that offline a debit is checked against a known
    // balance. No personal data: never the customer nor any include block. Each value NULL when
    // the service's reply did not carry it in a shape we understood.
    //   balance_cents  the balance as read (EUR cents)
    //   read_at        epoch ms, the outbox clock, when it was read
    db.exec(`
        CREATE TABLE outbox_card_cache (
          gift_card_id  TEXT PRIMARY KEY,
          masked_number TEXT,
          status        TEXT,
          balance_cents INTEGER,
          expires_on    TEXT,
          read_at       INTEGER NOT NULL
        ) STRICT;
      `);
  },
};
