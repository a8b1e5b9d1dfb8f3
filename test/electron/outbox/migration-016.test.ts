import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { attentionIndexMigration } from '../../../electron/outbox/index.ts';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { kioskSchema } from '../../../electron/schema.ts';
import { openDatabase } from '../../../electron/storage/database.ts';
import { tempDataDir } from './support.ts';

/**
 * Migration 016 indexes refused, failed and expired rows by acknowledgement, then id: the screens'
 * attention list (not acknowledged) is one range of it, in its order, so a page reads that page.
 */

let data: ReturnType<typeof tempDataDir>;
beforeEach(() => {
  data = tempDataDir();
});
afterEach(() => data.cleanup());

/** The statement `OutboxStore.attention` runs. */
const ATTENTION_QUERY = `SELECT * FROM outbox_debits WHERE state IN ('refused', 'failed', 'expired')
         AND acknowledged_at IS NULL ORDER BY id LIMIT ?`;

it('the attention list: its rows only, oldest first, a page at most, read along its own index', () => {
  const db = openDatabase({
    dataDir: data.dir,
    schema: { ...kioskSchema, migrations: kioskSchema.migrations.filter((m) => m.version < 16) },
  });
  const insert = db.connection.prepare(
    `INSERT INTO outbox_debits (idempotency_key, gift_card_id, request_body, amount_cents,
       reference, policy, accepted_offline, state, attempts, created_at, updated_at,
       next_attempt_at, acknowledged_at)
     VALUES (?, 'gift_card_1', '{}', 200, ?, 'prefer_online', 0, ?, 1, 1000, 1000, 1000, ?)`,
  );
  // Much acknowledged history, a few rows needing attention among it, and other states.
  const states = ['applied', 'refused', 'failed', 'expired', 'pending'] as const;
  const wanted: number[] = [];
  for (let index = 0; index < 500; index += 1) {
    const state = states[index % states.length]!;
    const needsAttention = state !== 'applied' && state !== 'pending' && index % 50 < 5;
    const id = Number(
      insert.run(
        randomUUID(),
        `kiosk/${index}`,
        state,
        needsAttention || state === 'applied' || state === 'pending' ? null : 2000,
      ).lastInsertRowid,
    );
    if (needsAttention) wanted.push(id);
  }
  attentionIndexMigration.up(db.connection);

  const plan = db.connection
    .prepare(`EXPLAIN QUERY PLAN ${ATTENTION_QUERY}`)
    .all(3)
    .map((row) => String((row as { detail: string }).detail));
  expect(plan.join('\n')).toContain('USING INDEX outbox_debits_attention (acknowledged_at=?)');
  expect(plan.join('\n')).not.toContain('TEMP B-TREE');

  const outbox = new Outbox({ db });
  expect(outbox.attention(200).map((debit) => debit.id)).toEqual(wanted);
  expect(outbox.attention(3).map((debit) => debit.id)).toEqual(wanted.slice(0, 3));
  db.close();
});
