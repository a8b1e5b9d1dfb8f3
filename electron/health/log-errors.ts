import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** An error line of the kiosk's log: its event, its code when it has one, and when. */
export interface LoggedError {
  readonly event: string;
  readonly code: string | null;
  /** ISO, as the line says. */
  readonly at: string;
}

/**
 * The tail read of each log file: the latest errors are at the end, and a log that grew to its
 * rotation size (or a file that is not a log at all) must not be read whole by a status check.
 */
const TAIL_BYTES = 256 * 1024;

/**
 * The latest `limit` error lines of the kiosk's log (`KIOSK_LOG`, then its first rotated file
 * when the current one holds fewer), newest first. The lines are the redacting logger's own; only
 * their event, code and time are kept. A missing or unreadable file, a line that is not JSON or
 * not an error: nothing, never a failure of the check.
 */
export async function loggedErrors(file: string, limit: number): Promise<LoggedError[]> {
  const found: LoggedError[] = [];
  for (const path of [file, `${file}.1`]) {
    const lines = await tail(path);
    for (let index = lines.length - 1; index >= 0 && found.length < limit; index -= 1) {
      const error = errorOf(lines[index]!);
      if (error !== undefined) found.push(error);
    }
    if (found.length >= limit) break;
  }
  return found;
}

async function tail(path: string): Promise<string[]> {
  let handle;
  try {
    // Non-blocking: a FIFO at KIOSK_LOG's path must not hang a status check (refused below).
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return [];
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return [];
    const { size } = stats;
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const lines = buffer.toString('utf8').split('\n');
    // The first line of a tail read from the middle of the file is a part of a line.
    if (length < size) lines.shift();
    return lines;
  } catch {
    return [];
  } finally {
    await handle.close();
  }
}

function errorOf(line: string): LoggedError | undefined {
  if (!line.includes('"error"')) return undefined;
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof record !== 'object' || record === null) return undefined;
  const { level, event, time, code } = record as Record<string, unknown>;
  if (level !== 'error' || typeof event !== 'string' || typeof time !== 'string') return undefined;
  if (Number.isNaN(Date.parse(time))) return undefined;
  return {
    event: event.slice(0, 200),
    code: typeof code === 'string' ? code.slice(0, 100) : null,
    at: new Date(time).toISOString(),
  };
}
