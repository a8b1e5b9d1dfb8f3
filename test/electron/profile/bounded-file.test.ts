import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  BoundedFileError,
  readBoundedFile,
  readBoundedFileSync,
} from '../../../electron/profile/index.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kiosk-bounded-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const failureOf = async (read: () => unknown) => {
  try {
    await read();
  } catch (error) {
    expect(error).toBeInstanceOf(BoundedFileError);
    return (error as BoundedFileError).failure;
  }
  return 'read';
};

it('reads a file of exactly the cap; one byte more is refused, sync and async alike', async () => {
  const exact = join(dir, 'exact');
  const over = join(dir, 'over');
  writeFileSync(exact, 'x'.repeat(100_000));
  writeFileSync(over, 'x'.repeat(100_001));
  expect(readBoundedFileSync(exact, 100_000).length).toBe(100_000);
  expect((await readBoundedFile(exact, 100_000)).length).toBe(100_000);
  expect(await failureOf(() => readBoundedFileSync(over, 100_000))).toBe('TOO_LARGE');
  expect(await failureOf(() => readBoundedFile(over, 100_000))).toBe('TOO_LARGE');
});

it('names what is not a file, and what is not there', async () => {
  for (const read of [readBoundedFileSync, readBoundedFile]) {
    expect(await failureOf(() => read('/dev/zero', 1024))).toBe('NOT_A_FILE');
    expect(await failureOf(() => read(dir, 1024))).toBe('NOT_A_FILE');
    expect(await failureOf(() => read(join(dir, 'missing'), 1024))).toBe('NOT_FOUND');
    expect(await failureOf(() => read(join(dir, 'missing', 'below'), 1024))).toBe('NOT_FOUND');
    // A file whose size says 0 (as /proc's do) is read, and stopped at the cap.
    expect(await failureOf(() => read('/proc/self/status', 16))).toBe('TOO_LARGE');
  }
});
