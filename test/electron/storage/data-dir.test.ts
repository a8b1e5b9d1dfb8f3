import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATA_DIR_MODE, prepareDataDir } from '../../../electron/storage/data-dir.ts';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'kiosk-data-dir-'));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('prepareDataDir', () => {
  it('creates the directory and its missing parents 0700, and returns its absolute path', () => {
    const dataDir = join(root, 'a', 'b', 'kiosk');
    expect(prepareDataDir(dataDir)).toBe(dataDir);
    for (const path of [join(root, 'a'), join(root, 'a', 'b'), dataDir]) {
      expect(statSync(path).isDirectory()).toBe(true);
      expect(modeOf(path)).toBe(DATA_DIR_MODE);
    }
  });

  it('keeps the mode of a directory that already exists', () => {
    const shared = join(root, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o750);
    prepareDataDir(shared);
    expect(modeOf(shared)).toBe(0o750);
  });

  it('is idempotent', () => {
    const dataDir = join(root, 'kiosk');
    prepareDataDir(dataDir);
    expect(prepareDataDir(dataDir)).toBe(dataDir);
  });

  it.each([
    ['a file', (file: string) => file, 'is not a directory'],
    ['under a file', (file: string) => join(file, 'kiosk'), 'ENOTDIR'],
  ])('refuses %s with STORAGE_DATA_DIR_UNUSABLE naming it', (_, pathOf, why) => {
    const file = join(root, 'passwd');
    writeFileSync(file, 'root:x:0:0::/root:/bin/sh\n');
    const dataDir = pathOf(file);
    expect(() => prepareDataDir(dataDir)).toThrow(
      expect.objectContaining({
        code: 'STORAGE_DATA_DIR_UNUSABLE',
        message: expect.stringMatching(new RegExp(`${dataDir}.*${why}`)),
      }),
    );
  });

  it('refuses, at once, a directory the kernel will not create (/proc/1/nope spun forever)', () => {
    expect(() => prepareDataDir('/proc/1/nope')).toThrow(
      expect.objectContaining({
        code: 'STORAGE_DATA_DIR_UNUSABLE',
        message: expect.stringContaining('cannot create /proc/1/nope (ENOENT)'),
      }),
    );
  });
});
