import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { kioskSchema } from '../../../electron/schema.ts';
import { readCommitCount } from '../../../electron/storage/commit-count.ts';
import {
  CommitMarker,
  commitMarkerPath,
  readCommitMarker,
} from '../../../electron/storage/commit-marker.ts';
import {
  DATABASE_FILE,
  DATABASE_FILE_MODE,
  type KioskDatabase,
  openDatabase,
  StorageError,
} from '../../../electron/storage/index.ts';

let dataDir: string;
let path: string;
const opened: KioskDatabase[] = [];

function open(options: { commitMarker?: boolean; version?: number } = {}): KioskDatabase {
  const db = openDatabase({
    dataDir,
    schema:
      options.version === undefined
        ? kioskSchema
        : { ...kioskSchema, migrations: kioskSchema.migrations.slice(0, options.version) },
    ...(options.commitMarker === undefined ? {} : { commitMarker: options.commitMarker }),
  });
  opened.push(db);
  return db;
}

function closeAll(): void {
  for (const db of opened.splice(0)) db.close();
}

/** One lease row written in a durable transaction: a commit like any other. */
function commit(db: KioskDatabase, name: string): void {
  db.transaction(() => {
    db.connection
      .prepare(`INSERT INTO leases (name, owner, acquired_at, expires_at) VALUES (?, 'o', 1, 2)`)
      .run(name);
  });
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'kiosk-commit-marker-'));
  path = join(dataDir, DATABASE_FILE);
});

afterEach(() => {
  closeAll();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the commit count and its marker', () => {
  it('count every durable commit that wrote something, in the database and beside it (0600)', () => {
    const db = open();
    expect(readCommitMarker(path)).toBe(0);
    commit(db, 'a');
    commit(db, 'b');
    // A transaction that only read, and a deferred one, write no marker.
    db.transaction(() => db.connection.prepare('SELECT count(*) FROM leases').get());
    db.transaction(() => commit(db, 'c'), { durability: 'deferred' });
    // Joined transactions are one commit.
    db.transaction(() => {
      commit(db, 'd');
      commit(db, 'e');
    });
    expect(readCommitCount(db.connection)).toBe(3);
    expect(readCommitMarker(path)).toBe(3);
    expect(statSync(commitMarkerPath(path)).mode & 0o777).toBe(DATABASE_FILE_MODE);
  });

  it('a rolled-back transaction counts nothing', () => {
    const db = open();
    commit(db, 'a');
    expect(() =>
      db.transaction(() => {
        commit(db, 'b');
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(readCommitCount(db.connection)).toBe(1);
    expect(readCommitMarker(path)).toBe(1);
  });

  it('an older copy of the database restored is refused, and opens again once its log is back', () => {
    const db = open();
    commit(db, 'a');
    db.close();
    const older = readFileSync(path);
    const db2 = open();
    commit(db2, 'b');
    commit(db2, 'c');
    db2.close();
    const newer = readFileSync(path);
    writeFileSync(path, older);
    expect(() => open()).toThrow(
      expect.objectContaining({
        code: 'STORAGE_LOG_LOST',
        message: expect.stringContaining(`${path} holds 1 commits but`),
      }),
    );
    expect(readFileSync(path).equals(older)).toBe(true);
    writeFileSync(path, newer);
    expect(readCommitCount(open().connection)).toBe(3);
  });

  it('a technician who moves the marker away accepts what is left', () => {
    const db = open();
    commit(db, 'a');
    db.close();
    const older = readFileSync(path);
    commit(open(), 'b');
    closeAll();
    writeFileSync(path, older);
    expect(() => open()).toThrow(expect.objectContaining({ code: 'STORAGE_LOG_LOST' }));
    rmSync(commitMarkerPath(path));
    const reopened = open();
    expect(readCommitCount(reopened.connection)).toBe(1);
    commit(reopened, 'b');
    expect(readCommitMarker(path)).toBe(2);
  });

  it('a database from before the count (migration 012) opens, and counts from there', () => {
    const before = open({ version: 11 });
    commit(before, 'a');
    before.close();
    expect(readCommitMarker(path)).toBe(0);
    const db = open();
    expect(db.migration.applied).toContain(
      'storage: the count of durable commits, checked against the commit marker at open',
    );
    expect(db.connection.prepare('SELECT name FROM leases').all()).toEqual([{ name: 'a' }]);
    expect(readCommitCount(db.connection)).toBe(0);
    commit(db, 'b');
    expect(readCommitMarker(path)).toBe(1);
  });

  it('the benchmark baseline (commitMarker: false) counts nothing, and is still checked at open', () => {
    const db = open();
    commit(db, 'a');
    const off = open({ commitMarker: false });
    commit(off, 'b');
    expect(readCommitCount(off.connection)).toBe(1);
    expect(readCommitMarker(path)).toBe(1);
  });
});

describe('the marker file', () => {
  it('is the largest valid slot: a slower writer never lowers it, a torn slot costs only itself', () => {
    const marker = new CommitMarker(path);
    try {
      marker.record(70);
      // Another process, slower, records the commit before: its slot is another one.
      marker.record(69);
      expect(readCommitMarker(path)).toBe(70);
      marker.record(71);
      const bytes = readFileSync(commitMarkerPath(path));
      // A power cut in the middle of the last slot's write: its checksum no longer matches.
      bytes.writeUInt8(bytes.readUInt8((71 % 64) * 16 + 6) ^ 0xff, (71 % 64) * 16 + 6);
      writeFileSync(commitMarkerPath(path), bytes);
      expect(readCommitMarker(path)).toBe(70);
    } finally {
      marker.close();
    }
  });

  it('a file that is not a marker is refused with the database, both untouched', () => {
    commit(open(), 'a');
    closeAll();
    const foreign = Buffer.from('not a marker\n');
    writeFileSync(commitMarkerPath(path), foreign);
    const file = readFileSync(path);
    expect(() => open()).toThrow(
      expect.objectContaining({
        code: 'STORAGE_DATABASE_DAMAGED',
        message: expect.stringContaining(commitMarkerPath(path)),
      }),
    );
    expect(readFileSync(commitMarkerPath(path)).equals(foreign)).toBe(true);
    expect(readFileSync(path).equals(file)).toBe(true);
  });

  it('a marker that cannot be written fails the call, as a reply lost after the commit', () => {
    const db = open();
    mkdirSync(commitMarkerPath(path));
    let error: unknown;
    try {
      commit(db, 'a');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).message).toContain(commitMarkerPath(path));
    // The work itself was committed: a caller finds it again (a debit by its request id).
    expect(db.connection.prepare('SELECT name FROM leases').all()).toEqual([{ name: 'a' }]);
  });

  it('is left beside a copy of the data directory made while the kiosk runs', () => {
    const db = open();
    commit(db, 'a');
    // A backup tool that copies the database file alone (no -wal) gets a file that is refused.
    const copy = mkdtempSync(join(tmpdir(), 'kiosk-commit-marker-copy-'));
    try {
      copyFileSync(path, join(copy, DATABASE_FILE));
      copyFileSync(commitMarkerPath(path), commitMarkerPath(join(copy, DATABASE_FILE)));
      expect(() => openDatabase({ dataDir: copy, schema: kioskSchema })).toThrow(
        expect.objectContaining({ code: 'STORAGE_LOG_LOST' }),
      );
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
