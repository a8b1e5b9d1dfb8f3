import {
  closeSync,
  constants,
  fchmodSync,
  fdatasyncSync,
  fsyncSync,
  openSync,
  readFileSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { StorageError, storageErrorOf } from './errors.ts';
import { DATABASE_FILE_MODE } from './database-file.ts';

/**
 * `kiosk.sqlite-commits`: how many commits were acknowledged, kept outside the write-ahead log.
 *
 * A commit in WAL mode lives only in `kiosk.sqlite-wal` until a checkpoint copies it into the
 * file. Lose that log (deleted, the file copied or restored without it) and SQLite opens the file
 * as it was at the last checkpoint, with no error: up to a hundred accepted debits gone without a
 * word. The database counts its durable commits (`storage_commits`, migration 012); after each
 * one, before the caller hears of it, that count is written here and flushed. At open a database
 * holding fewer commits than this file says is refused (`STORAGE_LOG_LOST`).
 *
 * Written after the commit (whose log is already flushed), never before: the marker can lag the
 * database by the commit under way, never lead it, so a crash at any point leaves a database that
 * opens. Read before the database's own count at open, for the same reason: another process may
 * commit in between, and both only grow.
 *
 * The file is a ring of 64 slots (the count modulo 64 picks the slot), each with its own checksum,
 * and the marker is the largest valid slot: the kiosk app and kioskctl record at the same time
 * without a lock, a slower writer never lowers what a faster one wrote, and a write torn by a
 * power cut costs only its own slot (a commit whose acknowledgement had not gone out).
 */
export const COMMIT_MARKER_SUFFIX = '-commits';

const SLOT_BYTES = 16;
const SLOTS = 64;
/** 'KCM1', little-endian. */
const MAGIC = 0x314d434b;

export function commitMarkerPath(databasePath: string): string {
  return `${databasePath}${COMMIT_MARKER_SUFFIX}`;
}

/** The most commits the marker beside this database says were acknowledged; 0 when it has none. */
export function readCommitMarker(databasePath: string): number {
  const path = commitMarkerPath(databasePath);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return 0;
    throw (
      storageErrorOf(error, path) ??
      new StorageError('STORAGE_OPEN_FAILED', `cannot read ${path}: ${messageOf(error)}`, {
        cause: error,
      })
    );
  }
  if (bytes.length > SLOTS * SLOT_BYTES || bytes.length % SLOT_BYTES !== 0) {
    throw new StorageError(
      'STORAGE_DATABASE_DAMAGED',
      `${path} is not the kiosk's commit marker (${bytes.length} bytes); it and the database were left as they are`,
    );
  }
  let most = 0;
  for (let offset = 0; offset < bytes.length; offset += SLOT_BYTES) {
    const slot = bytes.subarray(offset, offset + SLOT_BYTES);
    if (slot.readUInt32LE(0) !== MAGIC) continue;
    if (slot.readUInt32LE(12) !== crc32(slot.subarray(0, 12))) continue;
    most = Math.max(most, Number(slot.readBigUInt64LE(4)));
  }
  return most;
}

/** The writer of one connection: keeps the file open, and flushes every record before returning. */
export class CommitMarker {
  readonly path: string;
  #fd: number | undefined;

  constructor(databasePath: string) {
    this.path = commitMarkerPath(databasePath);
  }

  /** `commits` durable commits were made: recorded and flushed, or a StorageError. */
  record(commits: number): void {
    const slot = Buffer.alloc(SLOT_BYTES);
    slot.writeUInt32LE(MAGIC, 0);
    slot.writeBigUInt64LE(BigInt(commits), 4);
    slot.writeUInt32LE(crc32(slot.subarray(0, 12)), 12);
    try {
      const fd = this.#open();
      writeSync(fd, slot, 0, SLOT_BYTES, (commits % SLOTS) * SLOT_BYTES);
      fdatasyncSync(fd);
    } catch (error) {
      throw (
        storageErrorOf(error, this.path) ??
        new StorageError(
          'STORAGE_IO_FAILED',
          `cannot record the commit in ${this.path}: ${messageOf(error)}`,
          { cause: error },
        )
      );
    }
  }

  close(): void {
    if (this.#fd === undefined) return;
    try {
      closeSync(this.#fd);
    } catch {
      // Every record was flushed already.
    }
    this.#fd = undefined;
  }

  #open(): number {
    if (this.#fd !== undefined) return this.#fd;
    let fd: number;
    try {
      fd = openSync(
        this.path,
        constants.O_RDWR | constants.O_CREAT | constants.O_EXCL,
        DATABASE_FILE_MODE,
      );
      // The mode passes through the umask; the marker says as much as the database about sales.
      fchmodSync(fd, DATABASE_FILE_MODE);
      // Its name must survive a power cut as well as its content.
      syncDirectory(dirname(this.path));
    } catch (error) {
      if (codeOf(error) !== 'EEXIST') throw error;
      fd = openSync(this.path, constants.O_RDWR);
    }
    this.#fd = fd;
    return fd;
  }
}

function syncDirectory(directory: string): void {
  // NTFS journals its directories, and Windows cannot open one to flush it.
  if (process.platform === 'win32') return;
  const fd = openSync(directory, constants.O_RDONLY);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
