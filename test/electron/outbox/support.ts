import { mkdtempSync, rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../../electron/foundation/clock.ts';
import { systemClock } from '../../../electron/foundation/clock.ts';
import type { LogFields, Logger } from '../../../electron/logging/index.ts';
import { openDatabase, type KioskDatabase } from '../../../electron/storage/database.ts';
import { kioskSchema } from '../../../electron/schema.ts';
import type { Outbox } from '../../../electron/outbox/outbox.ts';
import { usageFingerprint } from '../../../electron/outbox/usage-evidence.ts';

/**
 * The contract check's verdict on the card's usages, as `kioskctl contract check` records it
 * for the profile in force (`usage-evidence.ts`): verified, "absent from the usages" is evidence
 * that a debit was never applied; not, it proves nothing.
 */
export function recordUsageVerdict(outbox: Outbox, verified = true): void {
  outbox.db.transaction(() =>
    outbox.store.recordUsageCheck({
      fingerprint: usageFingerprint(outbox.profile),
      profileName: outbox.profile.name,
      verified,
      detail: verified ? 'test: verified' : 'test: an empty list',
      checkedAt: Date.now(),
    }),
  );
}

/**
 * Real time that a test can move forward, as the sandbox clock moves: retention, max age.
 * `advance` is time passing (both the wall and the monotonic clock move); `step` moves the wall
 * clock alone, as an RTC fix or a technician would.
 */
export class ShiftedClock implements Clock {
  offsetMs = 0;
  elapsedMs = 0;
  now(): number {
    return Date.now() + this.offsetMs;
  }
  monotonic(): number {
    return performance.now() + this.elapsedMs;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return systemClock.sleep(ms, signal);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
    this.elapsedMs += ms;
  }
  step(ms: number): void {
    this.offsetMs += ms;
  }
}

/** A temporary data directory; `cleanup` closes every database opened through it. */
export function tempDataDir(prefix = 'kiosk-outbox-'): {
  dir: string;
  open: () => KioskDatabase;
  cleanup: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const opened: KioskDatabase[] = [];
  return {
    dir,
    open: () => {
      const db = openDatabase({ dataDir: dir, schema: kioskSchema });
      opened.push(db);
      return db;
    },
    cleanup: () => {
      for (const db of opened) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface LogLine {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly event: string;
  readonly fields: LogFields;
}

/** A logger that keeps every line, for tests that assert what was logged. */
export class RecordingLogger implements Logger {
  readonly lines: LogLine[] = [];
  debug(event: string, fields: LogFields = {}): void {
    this.lines.push({ level: 'debug', event, fields });
  }
  info(event: string, fields: LogFields = {}): void {
    this.lines.push({ level: 'info', event, fields });
  }
  warn(event: string, fields: LogFields = {}): void {
    this.lines.push({ level: 'warn', event, fields });
  }
  error(event: string, fields: LogFields = {}): void {
    this.lines.push({ level: 'error', event, fields });
  }
  events(event: string): LogLine[] {
    return this.lines.filter((line) => line.event === event);
  }
}
