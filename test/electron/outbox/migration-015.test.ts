import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { kioskSchema } from '../../../electron/schema.ts';
import { openDatabase } from '../../../electron/storage/database.ts';
import { tempDataDir } from './support.ts';

/**
 * Migration 015 renames resolved_at / resolved_by to settled_at / settled_by: "settled" is the
 * debit's final state, "resolved" only what staff recorded. Live and archived rows keep their
 * values under the new names; an open row stays unsettled.
 */

let data: ReturnType<typeof tempDataDir>;
beforeEach(() => {
  data = tempDataDir();
});
afterEach(() => data.cleanup());

describe('migration 015', () => {
  it('keeps when and by whom every live and archived debit was settled, under the new names', () => {
    const before = openDatabase({
      dataDir: data.dir,
      schema: { ...kioskSchema, migrations: kioskSchema.migrations.slice(0, 14) },
    });
    const insert = before.connection.prepare(
      `INSERT INTO outbox_debits (idempotency_key, gift_card_id, request_body, amount_cents,
         reference, policy, accepted_offline, state, attempts, created_at, updated_at,
         next_attempt_at, resolved_at, resolved_by, staff_resolution, staff_resolved_at)
       VALUES (?, 'gift_card_1', '{}', 200, ?, 'prefer_online', 0, ?, 1, 1000, 1000, 1000, ?, ?, ?, ?)`,
    );
    insert.run('key-1', 'kiosk/1', 'applied', 1500, 'service', null, null);
    insert.run('key-2', 'kiosk/2', 'refused', 1600, 'service', 'could_not_collect', 1700);
    insert.run('key-3', 'kiosk/3', 'pending', null, null, null, null);
    insert.run('key-4', 'kiosk/4', 'cancelled', 1800, 'staff', null, null);
    // Archived as archive.ts writes a row: every column by name, as JSON.
    before.connection.exec(`
      INSERT INTO outbox_debits_archive (id, state, created_at, request_id, debit, related, archived_at)
        SELECT id, state, created_at, request_id,
          json_object('id', id, 'idempotency_key', idempotency_key, 'gift_card_id', gift_card_id,
            'request_body', request_body, 'amount_cents', amount_cents, 'reference', reference,
            'policy', policy, 'accepted_offline', accepted_offline, 'state', state,
            'attempts', attempts, 'created_at', created_at, 'updated_at', updated_at,
            'next_attempt_at', next_attempt_at, 'resolved_at', resolved_at,
            'resolved_by', resolved_by),
          '{}', 2000
        FROM outbox_debits WHERE idempotency_key = 'key-4';
      DELETE FROM outbox_debits WHERE idempotency_key = 'key-4';
    `);
    before.close();

    const outbox = new Outbox({ db: data.open() });
    const [applied, refused, open, archived] = outbox.list();
    expect(applied).toMatchObject({ state: 'applied', settledAt: 1500, settledBy: 'service' });
    expect(refused).toMatchObject({
      state: 'refused',
      settledAt: 1600,
      settledBy: 'service',
      staffResolution: { kind: 'could_not_collect', at: 1700 },
    });
    expect(open).toMatchObject({ state: 'pending', settledAt: null, settledBy: null });
    expect(archived).toMatchObject({ state: 'cancelled', settledAt: 1800, settledBy: 'staff' });
    const columns = (
      outbox.store.db.connection.prepare(`PRAGMA table_info(outbox_debits)`).all() as {
        name: string;
      }[]
    ).map((column) => column.name);
    expect(columns).toEqual(expect.arrayContaining(['settled_at', 'settled_by']));
    expect(columns).not.toContain('resolved_at');
  });
});
