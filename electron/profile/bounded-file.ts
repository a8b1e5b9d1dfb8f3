import { type Stats, closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';

/**
 * Every file the kiosk is pointed at (an integration profile, the settings file, a credentials
 * file, a vendor's contract document) is read here: opened without blocking (O_NONBLOCK: a FIFO
 * at the path does not wait for a writer), checked to be a regular file on what was opened
 * (fstat, so the file read is the file checked; a FIFO, a device such as /dev/zero, a directory
 * or a socket is refused), then read with a byte cap (a file that reports size 0, as /proc's do,
 * or that grows while read, stops at the cap plus one byte and is refused). A refusal names the
 * file and the rule, never its content.
 */

export type BoundedFileFailure =
  /** Nothing at the path (or a path through something that is not a directory). */
  | 'NOT_FOUND'
  /** A directory, a FIFO, a device, a socket: not a file to read. */
  | 'NOT_A_FILE'
  | 'TOO_LARGE'
  /** Permission denied, or the read itself failed. */
  | 'UNREADABLE';

export class BoundedFileError extends Error {
  override readonly name = 'BoundedFileError';
  readonly failure: BoundedFileFailure;
  readonly path: string;
  /** The rule broken, without the path: "a FIFO (named pipe), not a regular file". */
  readonly reason: string;

  constructor(failure: BoundedFileFailure, path: string, reason: string) {
    super(`${path}: ${reason}`);
    this.failure = failure;
    this.path = path;
    this.reason = reason;
  }
}

const CHUNK_BYTES = 64 * 1024;
// O_NOCTTY: a terminal device at the path never becomes the process's controlling terminal.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** A readable size for messages: `1 MiB`, `64 KiB`, `200 bytes`. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** At most `maxBytes` bytes of the regular file at `path`, or a BoundedFileError. */
export function readBoundedFileSync(path: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    throw openFailure(path, error);
  }
  try {
    checkOpened(path, fstatSync(fd), maxBytes);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(read === chunk.length ? chunk : chunk.subarray(0, read));
      total += read;
      if (total > maxBytes) throw tooLarge(path, maxBytes);
    }
    return Buffer.concat(chunks, total);
  } catch (error) {
    throw readFailure(path, error);
  } finally {
    closeSync(fd);
  }
}

/** The same, without blocking the event loop on the reads. */
export async function readBoundedFile(path: string, maxBytes: number): Promise<Buffer> {
  let handle: FileHandle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (error) {
    throw openFailure(path, error);
  }
  try {
    checkOpened(path, await handle.stat(), maxBytes);
    return await readOpenedBounded(handle, path, maxBytes);
  } finally {
    await handle.close();
  }
}

/**
 * The reads of `readBoundedFile`, for a caller that opened and checked the file itself (the
 * provisioned credentials file, whose mode and owner are checked on the same handle).
 */
export async function readOpenedBounded(
  handle: FileHandle,
  path: string,
  maxBytes: number,
): Promise<Buffer> {
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) throw tooLarge(path, maxBytes);
    }
    return Buffer.concat(chunks, total);
  } catch (error) {
    throw readFailure(path, error);
  }
}

function checkOpened(path: string, stats: Stats, maxBytes: number): void {
  if (!stats.isFile()) {
    throw new BoundedFileError('NOT_A_FILE', path, `${kindOf(stats)}, not a regular file`);
  }
  if (stats.size > maxBytes) throw tooLarge(path, maxBytes);
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a file';
}

function tooLarge(path: string, maxBytes: number): BoundedFileError {
  return new BoundedFileError('TOO_LARGE', path, `larger than ${sizeText(maxBytes)}`);
}

function errnoOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function openFailure(path: string, error: unknown): BoundedFileError {
  const errno = errnoOf(error);
  if (errno === 'ENOENT' || errno === 'ENOTDIR')
    return new BoundedFileError('NOT_FOUND', path, `no such file (${errno})`);
  if (errno === 'EACCES' || errno === 'EPERM')
    return new BoundedFileError('UNREADABLE', path, `permission denied (${errno})`);
  if (errno === 'ENXIO') return new BoundedFileError('NOT_A_FILE', path, 'not a regular file');
  return new BoundedFileError('UNREADABLE', path, `cannot be opened (${errno ?? 'error'})`);
}

function readFailure(path: string, error: unknown): BoundedFileError {
  if (error instanceof BoundedFileError) return error;
  return new BoundedFileError('UNREADABLE', path, `cannot be read (${errnoOf(error) ?? 'error'})`);
}
