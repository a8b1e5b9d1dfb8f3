import { mkdtempSync, rmSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DATABASE_FILE,
  openDatabase,
  type KioskDatabase,
} from '../../../electron/storage/database.ts';
import { SchemaTooNew, StorageError } from '../../../electron/storage/errors.ts';
import { Lease } from '../../../electron/storage/lease.ts';
import { latestVersion, type Migration } from '../../../electron/storage/migration-runner.ts';
import { kioskSchema } from '../../../electron/schema.ts';

const { migrations } = kioskSchema;
let dataDir: string;
const opened: KioskDatabase[] = [];

function open(options: { migrations?: readonly Migration[] } = {}): KioskDatabase {
  const db = openDatabase({ dataDir, schema: { ...kioskSchema, ...options } });
  opened.push(db);
  return db;
}

function insertPending(db: KioskDatabase, key: string): void {
  db.connection
    .prepare(
      `INSERT INTO outbox_debits (idempotency_key, gift_card_id, request_body, amount_cents, reference,
         policy, accepted_offline, state, created_at, updated_at, next_attempt_at)
       VALUES (?, 'gift_card_x', '{"amount":1,"currency":"EUR"}', 100, 'ref', 'prefer_online', 0, 'pending', 1, 1, 1)`,
    )
    .run(key);
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'kiosk-storage-'));
});

afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('openDatabase', () => {
  it('creates a fresh database at the latest version with the durability settings', () => {
    const db = open();
    expect(db.path).toBe(join(dataDir, DATABASE_FILE));
    expect(db.migration).toMatchObject({ from: 0, to: latestVersion(migrations) });
    expect(db.migration.applied).toHaveLength(migrations.length);
    const pragma = (name: string) =>
      Object.values(db.connection.prepare(`PRAGMA ${name}`).get() ?? {})[0];
    expect(pragma('journal_mode')).toBe('wal');
    expect(pragma('synchronous')).toBe(2); // FULL
    expect(pragma('foreign_keys')).toBe(1);
    expect(pragma('busy_timeout')).toBe(5000);
    expect(pragma('user_version')).toBe(latestVersion(migrations));
  });

  it('re-opens without re-applying anything', () => {
    open().close();
    const again = open();
    expect(again.migration).toEqual({
      from: latestVersion(migrations),
      to: latestVersion(migrations),
      applied: [],
    });
  });

  it('keeps pending rows across a later migration, which runs in its own transaction', () => {
    const first = open({ migrations: migrations.slice(0, 1) });
    insertPending(first, '6f1c7a52-0d43-4c8e-9a57-2c8f9d0e1a11');
    first.close();
    const extra: Migration = {
      version: migrations.length + 1,
      name: 'test: add a column',
      up: (db) => db.exec('ALTER TABLE outbox_debits ADD COLUMN note TEXT'),
    };
    const db = open({ migrations: [...migrations, extra] });
    expect(db.migration.from).toBe(1);
    expect(db.migration.to).toBe(migrations.length + 1);
    const rows = db.connection.prepare('SELECT idempotency_key, state FROM outbox_debits').all();
    expect(rows).toEqual([
      { idempotency_key: '6f1c7a52-0d43-4c8e-9a57-2c8f9d0e1a11', state: 'pending' },
    ]);
  });

  it('rolls back a migration that rewrites or drops unsettled debits, and says so', () => {
    const first = open();
    insertPending(first, '6f1c7a52-0d43-4c8e-9a57-2c8f9d0e1a12');
    first.close();
    const rewrite: Migration = {
      version: migrations.length + 1,
      name: 'test: rewrite bodies',
      up: (db) => db.exec(`UPDATE outbox_debits SET request_body = '{}'`),
    };
    const error = (() => {
      try {
        open({ migrations: [...migrations, rewrite] });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).code).toBe('STORAGE_MIGRATION_FAILED');
    const db = open();
    expect(db.connection.prepare('SELECT request_body FROM outbox_debits').get()).toEqual({
      request_body: '{"amount":1,"currency":"EUR"}',
    });
    expect(db.migration.to).toBe(latestVersion(migrations));
  });

  it('refuses a database from a newer build with a typed error and leaves the file untouched', () => {
    // A database as a newer build would leave it: a later version, not even in WAL mode.
    const path = join(dataDir, DATABASE_FILE);
    const raw = new DatabaseSync(path);
    raw.exec(
      `CREATE TABLE future (x INTEGER); PRAGMA user_version = ${latestVersion(migrations) + 5}`,
    );
    raw.close();
    const before = readFileSync(path);

    let error: unknown;
    try {
      open();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SchemaTooNew);
    expect(error).toMatchObject({
      code: 'STORAGE_SCHEMA_TOO_NEW',
      foundVersion: latestVersion(migrations) + 5,
      knownVersion: latestVersion(migrations),
    });
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(existsSync(`${path}-wal`) && readFileSync(`${path}-wal`).length > 0).toBe(false);
  });

  it('refuses a file that is not a database', () => {
    writeFileSync(
      join(dataDir, DATABASE_FILE),
      'this is not sqlite, just text that is long enough to have a header'.repeat(20),
    );
    expect(() => open()).toThrow(expect.objectContaining({ code: 'STORAGE_NOT_A_DATABASE' }));
  });

  it('refuses a migration list with a gap', () => {
    const broken: Migration[] = [
      ...migrations,
      { version: migrations.length + 2, name: 'gap', up: () => {} },
    ];
    expect(() => open({ migrations: broken })).toThrow(
      expect.objectContaining({ code: 'STORAGE_MIGRATIONS_INVALID' }),
    );
  });

  it('a deferred-durability commit goes back to synchronous=FULL, even when it throws', () => {
    const db = open();
    const synchronous = () => db.connection.prepare('PRAGMA synchronous').get();
    let inside: unknown;
    db.transaction(
      () => {
        inside = synchronous();
        insertPending(db, '6f1c7a52-0d43-4c8e-9a57-2c8f9d0e1a14');
      },
      { durability: 'deferred' },
    );
    expect(inside).toEqual({ synchronous: 1 }); // NORMAL for that commit only
    expect(synchronous()).toEqual({ synchronous: 2 });
    expect(() =>
      db.transaction(
        () => {
          throw new Error('boom');
        },
        { durability: 'deferred' },
      ),
    ).toThrow('boom');
    expect(synchronous()).toEqual({ synchronous: 2 });
    expect(db.connection.prepare('SELECT count(*) AS n FROM outbox_debits').get()).toEqual({
      n: 1,
    });
  });

  it('rolls a transaction back when the work throws', () => {
    const db = open();
    expect(() =>
      db.transaction(() => {
        insertPending(db, '6f1c7a52-0d43-4c8e-9a57-2c8f9d0e1a13');
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(db.connection.prepare('SELECT count(*) AS n FROM outbox_debits').get()).toEqual({
      n: 0,
    });
  });
});

describe('Lease', () => {
  it('has one live holder; a lapsed or dead holder is replaced; a lapsed holder cannot renew', () => {
    let now = 1_000;
    const a = new Lease(open(), { name: 'w', owner: 'a', ttlMs: 100, now: () => now });
    const b = new Lease(open(), { name: 'w', owner: 'b', ttlMs: 100, now: () => now });
    expect(a.tryAcquire()).toBe(true);
    expect(b.tryAcquire()).toBe(false);
    now += 50;
    expect(a.renew()).toBe(true);
    now += 120;
    expect(b.tryAcquire()).toBe(true);
    expect(a.renew()).toBe(false);
    expect(a.tryAcquire()).toBe(false);
    b.release();
    expect(a.tryAcquire()).toBe(true);

    const c = new Lease(open(), {
      name: 'w',
      owner: 'c',
      ttlMs: 100,
      now: () => now,
      isHolderAlive: (owner) => owner !== 'a',
    });
    expect(c.tryAcquire()).toBe(true);
    expect(c.holder()?.owner).toBe('c');
  });
});
