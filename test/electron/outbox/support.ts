import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../../electron/api/clock.ts';
import { systemClock } from '../../../electron/api/clock.ts';
import { openDatabase, type KioskDatabase } from '../../../electron/storage/database.ts';
import { kioskSchema } from '../../../electron/schema.ts';

/** Real time that a test can move forward, as the sandbox clock moves: retention, max age. */
export class ShiftedClock implements Clock {
  offsetMs = 0;
  now(): number {
    return Date.now() + this.offsetMs;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return systemClock.sleep(ms, signal);
  }
  advance(ms: number): void {
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
