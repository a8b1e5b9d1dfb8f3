import { type FileHandle, mkdir, open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type LogSink, droppedLinesRecord } from './log-sink.ts';

export const DEFAULT_LOG_MAX_BYTES = 10 * 1024 * 1024;
export const DEFAULT_LOG_FILES = 5;

export interface FileSinkOptions {
  readonly path: string;
  /** A write that would take the file past this size rotates it first (default 10 MiB). */
  readonly maxBytes?: number;
  /** Files kept, the current one included: `kiosk.log`, `kiosk.log.1`… (default 5). */
  readonly maxFiles?: number;
  /** Lines waiting for the disk, in bytes; beyond, new lines are dropped (default 1 MiB). */
  readonly maxQueuedBytes?: number;
  /** After a failed write, the next try waits this long (default 1 s). */
  readonly retryMs?: number;
  readonly now?: () => number;
}

/** Large enough to keep the syscalls few, small enough to leave the event loop soon. */
const MAX_BATCH_BYTES = 64 * 1024;

/**
 * JSON lines appended to a file, off the caller's path: lines wait in a bounded queue for the one
 * writer, which rotates by size (`kiosk.log` -> `kiosk.log.1` ...; the oldest goes). When the
 * disk refuses (full, no descriptors, gone), the batch is dropped and counted, new lines queue
 * until the queue is full, and the writer tries again later, starting with a `log.lines_dropped`
 * record. The file stays open between writes, so a process out of descriptors can still log.
 */
export function createFileSink({
  path,
  maxBytes = DEFAULT_LOG_MAX_BYTES,
  maxFiles = DEFAULT_LOG_FILES,
  maxQueuedBytes = 1 << 20,
  retryMs = 1000,
  now = Date.now,
}: FileSinkOptions): LogSink {
  const queue: string[] = [];
  let queuedBytes = 0;
  let dropped = 0;
  /** Dropped lines no record in the file accounts for yet. */
  let unreported = 0;
  let handle: FileHandle | undefined;
  let size = 0;
  /** A failed write left part of a line that could not be cut off: start on a new line. */
  let torn = false;
  let writing: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  const drop = (lines: number) => {
    dropped += lines;
    unreported += lines;
  };

  async function openFile(flags: 'a' | 'w'): Promise<FileHandle> {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const opened = await open(path, flags, 0o600);
    try {
      size = (await opened.stat()).size;
    } catch (error) {
      await opened.close();
      throw error;
    }
    handle = opened;
    return opened;
  }

  async function releaseFile(): Promise<void> {
    const current = handle;
    handle = undefined;
    await current?.close().catch(() => {});
  }

  async function rotate(): Promise<FileHandle> {
    await releaseFile();
    for (let index = maxFiles - 1; index >= 1; index--) {
      const from = index === 1 ? path : `${path}.${index - 1}`;
      try {
        await rename(from, `${path}.${index}`);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    // 'w': with one file kept, rotating is starting it again.
    return openFile('w');
  }

  async function append(text: string): Promise<void> {
    let file = handle ?? (await openFile('a'));
    if (size > 0 && size + Buffer.byteLength(text) > maxBytes) {
      file = await rotate();
      torn = false;
    }
    const bytes = Buffer.from(torn ? `\n${text}` : text);
    const start = size;
    let offset = 0;
    try {
      while (offset < bytes.length) {
        offset += (await file.write(bytes, offset)).bytesWritten;
      }
    } catch (error) {
      // Cut the half-written line off (truncating needs no free space); else start a new one.
      if (offset > 0)
        torn = !(await file.truncate(start).then(
          () => true,
          () => false,
        ));
      throw error;
    }
    size += bytes.length;
    torn = false;
  }

  function takeBatch(): string[] {
    const limit = Math.min(MAX_BATCH_BYTES, maxBytes);
    let bytes = 0;
    let count = 0;
    while (count < queue.length) {
      const next = Buffer.byteLength(queue[count]!);
      if (count > 0 && bytes + next > limit) break;
      bytes += next;
      count++;
    }
    queuedBytes -= bytes;
    return queue.splice(0, count);
  }

  async function drain(): Promise<void> {
    while (queue.length > 0 || unreported > 0) {
      const lines = takeBatch();
      const report = unreported;
      const text = (report > 0 ? `${droppedLinesRecord(report, now())}\n` : '') + lines.join('');
      try {
        await append(text);
        unreported -= report;
      } catch {
        drop(lines.length);
        await releaseFile();
        if (!closed) {
          retry = setTimeout(() => {
            retry = undefined;
            start();
          }, retryMs);
          retry.unref();
        }
        return;
      }
    }
  }

  function start(): void {
    if (writing !== undefined || retry !== undefined) return;
    writing = drain().finally(() => {
      writing = undefined;
    });
  }

  async function flush(): Promise<void> {
    while (writing !== undefined) await writing;
  }

  return {
    write(line) {
      const text = `${line}\n`;
      const bytes = Buffer.byteLength(text);
      if (closed || queuedBytes + bytes > maxQueuedBytes) {
        drop(1);
        return;
      }
      queue.push(text);
      queuedBytes += bytes;
      start();
    },
    flush,
    async close() {
      if (closed) return flush();
      await flush();
      closed = true;
      // One last try for what waits on a failed disk; then it is dropped.
      clearTimeout(retry);
      retry = undefined;
      start();
      await flush();
      drop(queue.length);
      queue.length = 0;
      queuedBytes = 0;
      await releaseFile();
    },
    get dropped() {
      return dropped;
    },
  };
}
