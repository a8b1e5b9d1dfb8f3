import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE, openDatabase } from '../../../electron/storage/database.ts';
import {
  createDatabaseFile,
  DATABASE_FILE_MODE,
  databaseFileExists,
} from '../../../electron/storage/database-file.ts';
import { storageErrorOf } from '../../../electron/storage/errors.ts';
import { kioskSchema } from '../../../electron/schema.ts';

let dataDir: string;
let path: string;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'kiosk-db-file-'));
  path = join(dataDir, DATABASE_FILE);
});

afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

const open = () => openDatabase({ dataDir, schema: kioskSchema });
const modeOf = (file: string) => statSync(file).mode & 0o777;

/** A database with one accepted debit in it, closed. */
function databaseWithADebit(): Buffer {
  const db = open();
  db.connection
    .prepare(
      `INSERT INTO outbox_debits (idempotency_key, gift_card_id, request_body, amount_cents, reference,
         policy, accepted_offline, state, created_at, updated_at, next_attempt_at)
       VALUES ('6f1c7a52-0d43-4c8e-9a57-2c8f9d0e1a11', 'gift_card_x', '{"amount":1,"currency":"EUR"}',
         100, 'ref', 'prefer_online', 0, 'pending', 1, 1, 1)`,
    )
    .run();
  db.close();
  return readFileSync(path);
}

describe('the database file', () => {
  it('is created 0600 (and its -wal and -shm too), whatever the umask gave SQLite', () => {
    const db = open();
    db.transaction(() => db.connection.exec('DELETE FROM leases'));
    for (const file of [path, `${path}-wal`, `${path}-shm`]) {
      expect(modeOf(file)).toBe(DATABASE_FILE_MODE);
    }
    db.close();
    // Nothing of the creation is left beside it.
    expect(readdirSync(dataDir).sort()).toEqual([DATABASE_FILE]);
  });

  it('is created whole: a process that finds one already made uses it', () => {
    const made = databaseWithADebit();
    createDatabaseFile(path);
    expect(readFileSync(path).equals(made)).toBe(true);
    expect(readdirSync(dataDir)).toEqual([DATABASE_FILE]);
  });

  it('an empty file is refused, naming it, and left exactly as it was (no -wal, no -shm)', () => {
    databaseWithADebit();
    truncateSync(path, 0);
    const before = statSync(path);
    expect(() => open()).toThrow(
      expect.objectContaining({
        code: 'STORAGE_DATABASE_EMPTY',
        message: expect.stringContaining(path),
      }),
    );
    const after = statSync(path);
    expect([after.size, after.mtimeMs, after.ino]).toEqual([0, before.mtimeMs, before.ino]);
    expect(readdirSync(dataDir)).toEqual([DATABASE_FILE]);
  });

  it.each([
    ['text', Buffer.from('not a database, just text long enough to fill a header'.repeat(20))],
    ['a header too short', Buffer.from('SQLite form')],
    ['a near miss', Buffer.from('SQLite format 2\0'.padEnd(4096, '\0'))],
  ])('%s is refused as STORAGE_NOT_A_DATABASE, untouched', (_, bytes) => {
    writeFileSync(path, bytes);
    expect(() => databaseFileExists(path)).toThrow(
      expect.objectContaining({ code: 'STORAGE_NOT_A_DATABASE' }),
    );
    expect(() => open()).toThrow(expect.objectContaining({ code: 'STORAGE_NOT_A_DATABASE' }));
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('a damaged page is refused as STORAGE_DATABASE_DAMAGED, naming the file, untouched', () => {
    const made = databaseWithADebit();
    // Page 2 is the first page of the outbox's table: its debits.
    const damaged = Buffer.from(made);
    damaged.fill(0xa5, 4096, 8192);
    writeFileSync(path, damaged);
    expect(() => open()).toThrow(
      expect.objectContaining({
        code: 'STORAGE_DATABASE_DAMAGED',
        message: expect.stringContaining(path),
      }),
    );
    expect(readFileSync(path).equals(damaged)).toBe(true);
  });

  it('a damaged page of the catalogue mirror, a copy of the service’s, opens: its query says so', () => {
    const made = databaseWithADebit();
    const db = open();
    db.connection
      .prepare('INSERT INTO catalog_shops (id, position, body) VALUES (?, 0, ?)')
      .run('shop_x', '{}');
    const { rootpage } = db.connection
      .prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'catalog_shops'")
      .get() as { rootpage: number };
    db.close();
    const damaged = Buffer.from(readFileSync(path));
    expect(damaged.length).toBeGreaterThanOrEqual(made.length);
    damaged.fill(0xa5, (rootpage - 1) * 4096, rootpage * 4096);
    writeFileSync(path, damaged);
    const reopened = open();
    try {
      // The debits were checked and are read; the mirror's page fails where it is read.
      expect(reopened.connection.prepare('SELECT count(*) AS n FROM outbox_debits').get()).toEqual({
        n: 1,
      });
      expect(() => reopened.connection.prepare('SELECT * FROM catalog_shops').all()).toThrow();
    } finally {
      reopened.close();
    }
  });

  it('a page whose header lies (one row, two cells claimed) is refused too', () => {
    const made = databaseWithADebit();
    const damaged = Buffer.from(made);
    // The cell count of page 2, a table leaf holding one row: claims a second cell.
    damaged.writeUInt16BE(2, 4096 + 3);
    writeFileSync(path, damaged);
    expect(() => open()).toThrow(
      expect.objectContaining({
        code: 'STORAGE_DATABASE_DAMAGED',
        message: expect.stringContaining(path),
      }),
    );
  });

  it('a missing file beside its write-ahead log is refused: the log is the newest of a lost database', () => {
    writeFileSync(`${path}-wal`, Buffer.alloc(4128, 1));
    expect(() => open()).toThrow(
      expect.objectContaining({
        code: 'STORAGE_DATABASE_DAMAGED',
        message: expect.stringContaining(`${path}-wal`),
      }),
    );
    expect(existsSync(path)).toBe(false);
  });

  it('a directory where the file should be is refused', () => {
    mkdirSync(path);
    expect(() => open()).toThrow(
      expect.objectContaining({
        code: 'STORAGE_OPEN_FAILED',
        message: expect.stringContaining(path),
      }),
    );
  });
});

describe('storageErrorOf', () => {
  it('turns a disk that fills in the middle of a write into STORAGE_FULL', () => {
    const db = open();
    try {
      const pages = Number(
        Object.values(db.connection.prepare('PRAGMA page_count').get() ?? {})[0],
      );
      db.connection.exec(`PRAGMA max_page_count = ${pages}`);
      let thrown: unknown;
      try {
        db.transaction(() =>
          db.connection
            .prepare(
              'INSERT INTO leases (name, owner, acquired_at, expires_at) VALUES (?, ?, 1, 2)',
            )
            .run('x'.repeat(50_000), 'owner'),
        );
      } catch (error) {
        thrown = error;
      }
      expect(storageErrorOf(thrown, path)).toMatchObject({
        code: 'STORAGE_FULL',
        message: expect.stringContaining(path),
      });
    } finally {
      db.close();
    }
  });

  it('maps a full or read-only disk from the file system, and nothing else', () => {
    const errno = (code: string) => Object.assign(new Error(code), { code });
    expect(storageErrorOf(errno('ENOSPC'))?.code).toBe('STORAGE_FULL');
    expect(storageErrorOf(errno('EROFS'))?.code).toBe('STORAGE_ACCESS_DENIED');
    expect(storageErrorOf(errno('ECONNREFUSED'))).toBeUndefined();
    expect(storageErrorOf(new Error('bug'))).toBeUndefined();
    expect(storageErrorOf('text')).toBeUndefined();
  });
});
