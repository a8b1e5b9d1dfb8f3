import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type KioskDatabase } from '../../../electron/storage/database.ts';
import { COMMITS_PER_CHECKPOINT } from '../../../electron/storage/idle-checkpoint.ts';
import { kioskSchema } from '../../../electron/schema.ts';

let dataDir: string;
let db: KioskDatabase;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'kiosk-checkpoint-'));
  db = openDatabase({ dataDir, schema: kioskSchema });
});

afterEach(() => {
  db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function commitDebit(key: string): void {
  db.transaction(() =>
    db.connection
      .prepare(
        `INSERT INTO outbox_debits (idempotency_key, gift_card_id, request_body, amount_cents,
           reference, policy, accepted_offline, state, created_at, updated_at, next_attempt_at)
         VALUES (?, 'gift_card_x', '{"amount":1,"currency":"EUR"}', 100, 'ref', 'prefer_online',
           0, 'pending', 1, 1, 1)`,
      )
      .run(key),
  );
}

/** The debits the database file holds on its own, without its write-ahead log. */
function debitsInFile(): number {
  const copyDir = mkdtempSync(join(tmpdir(), 'kiosk-checkpoint-copy-'));
  try {
    const copy = join(copyDir, 'copy.sqlite');
    copyFileSync(db.path, copy);
    const reader = new DatabaseSync(copy, { readOnly: true });
    try {
      return (reader.prepare('SELECT count(*) AS n FROM outbox_debits').get() as { n: number }).n;
    } finally {
      reader.close();
    }
  } finally {
    rmSync(copyDir, { recursive: true, force: true });
  }
}

describe('the idle checkpoint', () => {
  it('copies the log into the file in the next turn, never inside the commit', async () => {
    // At open, the migrations' pages were copied: the file alone has the tables.
    expect(debitsInFile()).toBe(0);
    for (let i = 0; i < COMMITS_PER_CHECKPOINT; i++) commitDebit(`key-${i}`);
    // Every commit is durable in the log, and none of them paid for a checkpoint.
    expect(db.connection.prepare('SELECT count(*) AS n FROM outbox_debits').get()).toEqual({
      n: COMMITS_PER_CHECKPOINT,
    });
    expect(debitsInFile()).toBe(0);
    await nextTurn();
    expect(debitsInFile()).toBe(COMMITS_PER_CHECKPOINT);
    // SQLite's own checkpoint stays as the backstop for large writes.
    expect(db.connection.prepare('PRAGMA wal_autocheckpoint').get()).toEqual({
      wal_autocheckpoint: 1000,
    });
  });

  it('counts a transaction that joins another as part of it', async () => {
    for (let i = 0; i < COMMITS_PER_CHECKPOINT - 1; i++) {
      db.transaction(() => {
        commitDebit(`outer-${i}`);
        commitDebit(`inner-${i}`);
      });
    }
    await nextTurn();
    expect(debitsInFile()).toBe(0);
    commitDebit('last');
    await nextTurn();
    expect(debitsInFile()).toBe(2 * (COMMITS_PER_CHECKPOINT - 1) + 1);
  });

  it('closing with a checkpoint scheduled throws nothing and loses nothing', async () => {
    for (let i = 0; i < COMMITS_PER_CHECKPOINT; i++) commitDebit(`key-${i}`);
    db.close();
    // A checkpoint on the closed connection would throw from the event loop and fail this test.
    await nextTurn();
    db = openDatabase({ dataDir, schema: kioskSchema });
    expect(db.connection.prepare('SELECT count(*) AS n FROM outbox_debits').get()).toEqual({
      n: COMMITS_PER_CHECKPOINT,
    });
  });
});
