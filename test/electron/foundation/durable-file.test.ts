import { execFileSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  removeFileDurably,
  writeFileDurably,
  writeFileDurablySync,
} from '../../../electron/foundation/index.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-durable-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const writers = [
  { name: 'writeFileDurably', write: writeFileDurably },
  {
    name: 'writeFileDurablySync',
    write: async (...args: Parameters<typeof writeFileDurablySync>) =>
      writeFileDurablySync(...args),
  },
];

describe.each(writers)('$name', ({ write }) => {
  it('creates the file with the intended mode (0600 by default, 0640 when asked)', async () => {
    const dir = tempDir();
    await write(join(dir, 'secret.json'), '{"a":1}\n');
    await write(join(dir, 'shared.json'), '{"b":2}\n', { mode: 0o640 });

    expect(statSync(join(dir, 'secret.json')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'shared.json')).mode & 0o777).toBe(0o640);
    expect(readFileSync(join(dir, 'secret.json'), 'utf8')).toBe('{"a":1}\n');
  });

  it('states the mode when replacing a file that had another one', async () => {
    const dir = tempDir();
    const path = join(dir, 'settings.json');
    writeFileSync(path, 'old', { mode: 0o666 });
    await write(path, 'new', { mode: 0o600 });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('replaces the file by a rename: a reader of the old file keeps it whole, the path holds the new one, no temp file is left', async () => {
    const dir = tempDir();
    const path = join(dir, 'settings.json');
    writeFileSync(path, 'old content');
    const oldInode = statSync(path).ino;
    const reader = openSync(path, 'r');
    cleanups.push(() => closeSync(reader));

    await write(path, new TextEncoder().encode('new content, longer than the old'));

    // Written in place, the open reader would see the new bytes (or a truncated mix).
    const seen = Buffer.alloc(64);
    const length = readSync(reader, seen, 0, seen.length, 0);
    expect(seen.subarray(0, length).toString()).toBe('old content');
    expect(readFileSync(path, 'utf8')).toBe('new content, longer than the old');
    expect(statSync(path).ino).not.toBe(oldInode);
    expect(readdirSync(dir)).toEqual(['settings.json']);
  });

  it('on a failure throws the error with its code, leaves no temp file and the target as it was', async () => {
    const dir = tempDir();
    // A non-empty directory at the path: the temp file is written, the rename over it fails.
    const path = join(dir, 'settings.json');
    mkdirSync(path);
    writeFileSync(join(path, 'keep'), 'x');

    const failure = await write(path, 'new').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EEXIST)$/) });
    expect(readdirSync(dir)).toEqual(['settings.json']);
    expect(readdirSync(path)).toEqual(['keep']);
  });

  it('in a directory that does not exist throws ENOENT (each caller prepares its own)', async () => {
    const dir = tempDir();
    await expect(write(join(dir, 'missing', 'settings.json'), 'x')).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('a full disk (a 1 MiB tmpfs, filled)', () => {
  it('is refused with ENOSPC: the old file intact, no temp file left, by both writers', async () => {
    if (process.getuid?.() !== 0) {
      throw new Error('The full-disk test mounts a 1 MiB tmpfs and needs root (CI runs as root).');
    }
    const dir = tempDir();
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,mode=0700', 'kiosk-durable-test', dir]);
    cleanups.push(() => void execFileSync('umount', ['-l', dir]));
    const path = join(dir, 'settings.json');
    await writeFileDurably(path, 'old');
    expect(() => writeFileSync(join(dir, 'filler'), Buffer.alloc(2 << 20))).toThrow(/ENOSPC/);

    const big = Buffer.alloc(256 * 1024, 'x');
    await expect(writeFileDurably(path, big)).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(() => writeFileDurablySync(path, big)).toThrow(
      expect.objectContaining({ code: 'ENOSPC' }),
    );
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir).sort()).toEqual(['filler', 'settings.json']);
  });
});

describe('removeFileDurably', () => {
  it('removes the file, and an absent file is fine', async () => {
    const dir = tempDir();
    const path = join(dir, 'credentials.json');
    writeFileSync(path, 'x');
    await removeFileDurably(path);
    await removeFileDurably(path);
    expect(readdirSync(dir)).toEqual([]);
  });
});
