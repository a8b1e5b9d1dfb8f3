import { randomUUID } from 'node:crypto';
import {
  closeSync,
  constants,
  copyFileSync,
  fchmodSync,
  fstatSync,
  linkSync,
  openSync,
  readSync,
  rmSync,
  statSync,
} from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { StorageError, storageErrorOf } from './errors.ts';

/** Only the kiosk's own user reads its debits; SQLite gives its -wal and -shm files the same. */
export const DATABASE_FILE_MODE = 0o600;

/** The first 16 bytes of every SQLite database file. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Whether the database file is there, refusing one that cannot be the kiosk's. SQLite opens an
 * empty or missing file as a new, empty database: after a truncation (a full disk, a bad restore)
 * the outbox would start afresh and the debits it had accepted would be gone without a word. So
 * an empty file, a file without the SQLite header, and a missing file whose write-ahead log is
 * still there are refused, naming the file, and left exactly as they are.
 */
export function databaseFileExists(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if (codeOf(error) !== 'ENOENT') throw cannotOpen(path, error);
    refuseOrphanedLog(path);
    return false;
  }
  try {
    if (!fstatSync(fd).isFile())
      throw new StorageError('STORAGE_OPEN_FAILED', `${path} is not a file`);
    const header = Buffer.alloc(SQLITE_HEADER.length);
    const read = readSync(fd, header, 0, header.length, 0);
    if (read === 0) {
      throw new StorageError(
        'STORAGE_DATABASE_EMPTY',
        `${path} is empty: the database was truncated or lost; restore it from a backup, or move it away to start an empty one (it was left untouched)`,
      );
    }
    if (read < header.length || !header.equals(SQLITE_HEADER)) {
      throw new StorageError(
        'STORAGE_NOT_A_DATABASE',
        `${path} is not a SQLite database (it was left untouched)`,
      );
    }
    return true;
  } catch (error) {
    throw error instanceof StorageError ? error : cannotOpen(path, error);
  } finally {
    closeSync(fd);
  }
}

/**
 * Creates the database file whole: made under a temporary name (0600 whatever the umask, already
 * in WAL mode so it has its header), then linked into place. No process ever sees it half made
 * (an empty file is refused above), and when another process links its own first, that one wins.
 */
export function createDatabaseFile(path: string): void {
  const temporary = `${path}.${randomUUID()}.new`;
  try {
    const fd = openSync(temporary, 'wx', DATABASE_FILE_MODE);
    try {
      fchmodSync(fd, DATABASE_FILE_MODE);
    } finally {
      closeSync(fd);
    }
    const seed = new DatabaseSync(temporary);
    try {
      seed.exec('PRAGMA journal_mode = WAL');
    } finally {
      seed.close();
    }
    linkIntoPlace(temporary, path);
  } catch (error) {
    throw storageErrorOf(error, path) ?? cannotOpen(path, error);
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${temporary}${suffix}`, { force: true });
  }
}

function linkIntoPlace(temporary: string, path: string): void {
  try {
    linkSync(temporary, path);
  } catch (error) {
    if (codeOf(error) === 'EEXIST') return;
    // A file system without hard links (FAT): an exclusive copy, still never over a file.
    if (codeOf(error) !== 'EPERM' && codeOf(error) !== 'ENOTSUP') throw error;
    try {
      copyFileSync(temporary, path, constants.COPYFILE_EXCL);
    } catch (copyError) {
      if (codeOf(copyError) !== 'EEXIST') throw copyError;
    }
  }
}

/** A missing database beside a write-ahead log: the log is the newest part of a lost database. */
function refuseOrphanedLog(path: string): void {
  let size: number;
  try {
    size = statSync(`${path}-wal`).size;
  } catch {
    return;
  }
  if (size === 0) return;
  throw new StorageError(
    'STORAGE_DATABASE_DAMAGED',
    `${path} is missing but its write-ahead log ${path}-wal (${size} bytes) is there: restore the database, or move the log away to start an empty one (nothing was created)`,
  );
}

function cannotOpen(path: string, error: unknown): StorageError {
  const code = codeOf(error);
  return new StorageError(
    code === 'EACCES' || code === 'EPERM' ? 'STORAGE_ACCESS_DENIED' : 'STORAGE_OPEN_FAILED',
    `cannot open ${path}: ${error instanceof Error ? error.message : String(error)}`,
    { cause: error },
  );
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
