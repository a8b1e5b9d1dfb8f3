import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFileSink } from '../../../electron/logging/file-sink.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kiosk-file-sink-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const linesOf = (path: string) =>
  existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
    : [];
const record = (n: number) => JSON.stringify({ event: 'test.line', n, pad: 'x'.repeat(60) });

describe('the log file sink', () => {
  it('appends whole lines in order to a file only its owner reads, creating its folder', async () => {
    const path = join(dir, 'logs', 'kiosk.log');
    const sink = createFileSink({ path });
    for (let n = 0; n < 500; n++) sink.write(record(n));
    await sink.flush();
    expect(linesOf(path).map((line) => (JSON.parse(line) as { n: number }).n)).toEqual(
      Array.from({ length: 500 }, (_, n) => n),
    );
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'logs')).mode & 0o777).toBe(0o700);
    expect(sink.dropped).toBe(0);
    await sink.close();
  });

  it('rotates by size and keeps the configured number of files, newest first', async () => {
    const path = join(dir, 'kiosk.log');
    const sink = createFileSink({ path, maxBytes: 4096, maxFiles: 3 });
    // Line by line, flushed, so each write meets the size check on its own.
    for (let n = 0; n < 300; n++) {
      sink.write(record(n));
      await sink.flush();
    }
    await sink.close();
    expect(readdirSync(dir).sort()).toEqual(['kiosk.log', 'kiosk.log.1', 'kiosk.log.2']);
    const files = [`${path}.2`, `${path}.1`, path];
    for (const file of files) expect(statSync(file).size).toBeLessThanOrEqual(4096);
    // A file was rotated when the next line did not fit: full to within one line.
    for (const file of files.slice(0, 2)) {
      expect(statSync(file).size).toBeGreaterThan(4096 - record(999).length - 1);
    }
    const kept = files.flatMap(linesOf).map((line) => (JSON.parse(line) as { n: number }).n);
    // The oldest lines went with the oldest files; what is kept is the latest run, in order.
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 300 - kept.length + i));
  });

  it('with one file kept, starts it again rather than grow past the limit', async () => {
    const path = join(dir, 'kiosk.log');
    const sink = createFileSink({ path, maxBytes: 4096, maxFiles: 1 });
    for (let n = 0; n < 200; n++) {
      sink.write(record(n));
      await sink.flush();
    }
    await sink.close();
    expect(readdirSync(dir)).toEqual(['kiosk.log']);
    expect(statSync(path).size).toBeLessThanOrEqual(4096);
    expect(linesOf(path).at(-1)).toBe(record(199));
  });

  it('on a full disk (/dev/full: ENOSPC) drops and counts lines, and never throws', async () => {
    const sink = createFileSink({ path: '/dev/full', retryMs: 60_000 });
    for (let n = 0; n < 50; n++) sink.write(record(n));
    await sink.flush();
    // The first line left with the writer and failed; the others wait for the next try.
    expect(sink.dropped).toBe(1);
    // Closing tries once more, then drops what waits.
    await sink.close();
    expect(sink.dropped).toBe(50);
    sink.write(record(50));
    expect(sink.dropped).toBe(51);
  });

  it('queues a bounded amount while it cannot write, then writes how many it dropped', async () => {
    // A file where the log folder should be: every open fails until it is gone.
    const blocker = join(dir, 'logs');
    writeFileSync(blocker, '');
    const path = join(blocker, 'kiosk.log');
    const line = 'x'.repeat(99);
    const sink = createFileSink({ path, maxQueuedBytes: 2000, retryMs: 20 });
    // The first line leaves with the writer at once; 20 lines of 100 bytes fill the queue.
    for (let n = 0; n < 100; n++) sink.write(line);
    await sink.flush();
    expect(sink.dropped).toBe(80);

    rmSync(blocker);
    await vi.waitFor(() => expect(linesOf(path)).toHaveLength(21), { timeout: 10_000 });
    const [first, ...rest] = linesOf(path);
    expect(JSON.parse(first!)).toMatchObject({
      level: 'warn',
      event: 'log.lines_dropped',
      dropped: 80,
    });
    expect(rest).toEqual(Array.from({ length: 20 }, () => line));
    await sink.close();
  });

  it('close writes what is queued, then drops what comes after', async () => {
    const path = join(dir, 'kiosk.log');
    const sink = createFileSink({ path });
    sink.write(record(1));
    sink.write(record(2));
    await sink.close();
    sink.write(record(3));
    await sink.flush();
    expect(linesOf(path)).toEqual([record(1), record(2)]);
    expect(sink.dropped).toBe(1);
  });
});
