import { accessSync, chmodSync, constants, mkdirSync, type Stats, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { StorageError } from './errors.ts';

/** Only the kiosk's own user reads its data: debits, the catalogue mirror, settings. */
export const DATA_DIR_MODE = 0o700;

/**
 * The kiosk's data directory, checked and created (with its missing parents, each 0700) before
 * anything is opened in it, so every way it can be unusable is one typed error naming it:
 * `STORAGE_DATA_DIR_UNUSABLE`. A directory that exists keeps its mode: an integrator may have
 * shared it on purpose.
 *
 * Not `mkdirSync(dir, {recursive: true})`: where mkdir(2) answers ENOENT under a parent that
 * exists (`/proc/1/nope`), Node's recursive mkdir retries forever at 100% CPU.
 */
export function prepareDataDir(dataDir: string): string {
  const path = resolve(dataDir);
  const missing: string[] = [];
  for (let probe = path; ; probe = dirname(probe)) {
    const found = statOf(probe, path);
    if (found === 'missing') {
      if (dirname(probe) === probe) throw unusable(path, `${probe} does not exist`);
      missing.unshift(probe);
      continue;
    }
    if (!found.isDirectory()) throw unusable(path, `${probe} is not a directory`);
    break;
  }
  for (const directory of missing) {
    try {
      mkdirSync(directory, { mode: DATA_DIR_MODE });
      // mkdir's mode passes through the umask; the directory's must not depend on it.
      chmodSync(directory, DATA_DIR_MODE);
    } catch (error) {
      // Another process (the kiosk app and kioskctl start together) created it first.
      if (codeOf(error) === 'EEXIST' && statOf(directory, path) !== 'missing') continue;
      throw unusable(
        path,
        `cannot create ${directory} (${codeOf(error) ?? messageOf(error)})`,
        error,
      );
    }
  }
  try {
    accessSync(path, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (error) {
    throw unusable(path, `not readable and writable by this user (${codeOf(error)})`, error);
  }
  return path;
}

function statOf(probe: string, dataDir: string): Stats | 'missing' {
  try {
    return statSync(probe);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return 'missing';
    // ENOTDIR (a file on the way: /etc/passwd/x), EACCES, ELOOP...
    throw unusable(dataDir, `cannot reach ${probe} (${codeOf(error) ?? messageOf(error)})`, error);
  }
}

function unusable(dataDir: string, why: string, cause?: unknown): StorageError {
  return new StorageError(
    'STORAGE_DATA_DIR_UNUSABLE',
    `the data directory ${dataDir} cannot be used: ${why}`,
    cause === undefined ? undefined : { cause },
  );
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
