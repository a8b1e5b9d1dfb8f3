import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * The one way the main process replaces a small file (settings, the PIN lockout, credentials):
 * atomic and durable. A temp file in the same directory, created with the intended mode (so a
 * secret is never briefly readable by others), written, fsynced, renamed over the target, and the
 * directory fsynced: once the call returns, a crash or power cut leaves the new file; before, the
 * old one; never a torn mix, never an empty file.
 *
 * The directory must exist (each caller prepares its own, with its own checks and mode). A
 * failure throws Node's own error, with its `code` (ENOSPC, EACCES...), after removing the temp
 * file: the target is untouched and nothing is left behind.
 */
export interface DurableWriteOptions {
  /** The file's mode, stated exactly (the umask may only have narrowed it). Default 0o600. */
  readonly mode?: number;
}

const DEFAULT_MODE = 0o600;

export async function writeFileDurably(
  path: string,
  data: string | Uint8Array,
  { mode = DEFAULT_MODE }: DurableWriteOptions = {},
): Promise<void> {
  const dir = dirname(path);
  const temp = tempPathFor(path);
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.writeFile(data);
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(dir);
}

/** The same, for a caller that must not yield (a PIN try is recorded before its answer). */
export function writeFileDurablySync(
  path: string,
  data: string | Uint8Array,
  { mode = DEFAULT_MODE }: DurableWriteOptions = {},
): void {
  const dir = dirname(path);
  const temp = tempPathFor(path);
  try {
    const fd = openSync(temp, 'wx', mode);
    try {
      writeFileSync(fd, data);
      fchmodSync(fd, mode);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  syncDirectorySync(dir);
}

/** Removes `path` (absent is fine) and makes the removal durable. */
export async function removeFileDurably(path: string): Promise<void> {
  await rm(path, { force: true });
  await syncDirectory(dirname(path));
}

/** Hidden, beside the target (a rename never crosses file systems), and never reused. */
function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
}

// A rename is durable only once the directory entry is. Windows cannot open a directory for
// fsync; NTFS journals the rename itself.
async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function syncDirectorySync(dir: string): void {
  if (process.platform === 'win32') return;
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
