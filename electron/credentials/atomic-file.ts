import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `data` to `path` so that a crash or power loss leaves either the old file or the new
 * one, never a torn mix: a temp file in the same directory (created with the final mode, so the
 * secret is never briefly world-readable), fsync, rename over the target, fsync of the directory.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  { mode = 0o600, dirMode = 0o700 }: { mode?: number; dirMode?: number } = {},
): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: dirMode });
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', mode);
  try {
    try {
      await handle.writeFile(data);
      // The umask may have narrowed the mode; never widened it, but state it exactly.
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

/** Removes `path` (absent is fine) and makes the removal durable. */
export async function removeFileDurably(path: string): Promise<void> {
  await rm(path, { force: true });
  await syncDirectory(dirname(path));
}

async function syncDirectory(dir: string): Promise<void> {
  // Windows cannot open a directory for fsync; NTFS journals the rename itself.
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
