import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ServiceTimeBounds } from '../api/index.ts';
import type { Clock } from '../foundation/index.ts';
import { type Logger, silentLogger } from '../logging/index.ts';
import type { KioskDatabase } from '../storage/index.ts';
import { archiveBatch } from './archive.ts';
import { DEFAULT_SETTLED_RETENTION_MS, type OfflineLimits } from './limits.ts';

export interface OutboxArchiverOptions {
  /** The outbox's database, limits in force (`settledRetentionMs`) and clock. */
  readonly outbox: {
    readonly db: KioskDatabase;
    readonly limits: OfflineLimits;
    readonly clock: Clock;
  };
  /**
   * The service's time now (`ServiceClock.now`); undefined before its first dated reply, and then
   * nothing is archived: a retention, like every outbox age, is judged on the service's clock.
   */
  readonly serviceNow: () => ServiceTimeBounds | undefined;
  /** Rows a transaction moves: each holds the write lock for a few milliseconds. */
  readonly batchSize?: number;
  /** Between two runs. */
  readonly intervalMs?: number;
  /** From `start` to the first run: the kiosk's own start-up comes first. */
  readonly startDelayMs?: number;
  readonly logger?: Logger;
  /** Test seam: runs in each batch's transaction between the copy and the delete. */
  readonly afterCopy?: () => void;
}

export interface ArchiveRun {
  readonly moved: number;
  readonly dated: number;
  readonly batches: number;
  /** Why nothing was looked at: no reading of the service's clock yet. */
  readonly skipped?: 'no-service-time';
}

export const DEFAULT_ARCHIVE_BATCH = 250;
export const DEFAULT_ARCHIVE_INTERVAL_MS = 60 * 60 * 1000;
export const DEFAULT_ARCHIVE_START_DELAY_MS = 2 * 60 * 1000;

/**
 * Moves settled debits past their retention to the archive (`archive.ts`) in the background:
 * bounded batches, one transaction each and a turn of the event loop between two, so a debit
 * accepted meanwhile (an IPC message, or kioskctl waiting for the write lock) waits for one batch
 * at most. A batch that fails (the database busy, a full disk) is rolled back whole and retried at
 * the next run; the kiosk never stops for it.
 */
export class OutboxArchiver {
  readonly #options: OutboxArchiverOptions;
  readonly #logger: Logger;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<ArchiveRun> | undefined;
  #stopped = false;

  constructor(options: OutboxArchiverOptions) {
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
  }

  start(): void {
    this.#stopped = false;
    this.#schedule(this.#options.startDelayMs ?? DEFAULT_ARCHIVE_START_DELAY_MS);
  }

  /** No new batch starts; resolves once the one under way (if any) has committed. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running?.catch(() => undefined);
  }

  /** Archives everything due now, batch by batch (a run already under way is joined). */
  run(): Promise<ArchiveRun> {
    this.#running ??= this.#run().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #run(): Promise<ArchiveRun> {
    const { outbox, serviceNow, afterCopy } = this.#options;
    const limit = this.#options.batchSize ?? DEFAULT_ARCHIVE_BATCH;
    let moved = 0;
    let dated = 0;
    let batches = 0;
    for (;;) {
      // Read afresh for every batch: the service's clock moves on, an administrator may change
      // the retention meanwhile.
      // Ages are decided on confirmed readings only: one reply whose clock jumped moves nothing.
      const service = serviceNow();
      if (service === undefined || !service.confirmed) {
        return { moved, dated, batches, ...(batches === 0 ? { skipped: 'no-service-time' } : {}) };
      }
      const retention = outbox.limits.settledRetentionMs ?? DEFAULT_SETTLED_RETENTION_MS;
      const result = archiveBatch(
        outbox.db,
        {
          cutoff: service.earliest - retention,
          serviceLatest: service.latest,
          now: outbox.clock.now(),
          limit,
        },
        afterCopy,
      );
      batches += 1;
      moved += result.moved;
      dated += result.dated;
      if (!result.more || this.#stopped) break;
      await nextTurn();
      if (this.#stopped) break;
    }
    if (moved > 0 || dated > 0) {
      this.#logger.info('outbox.archive.moved', { moved, dated, batches });
    }
    return { moved, dated, batches };
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.run().then(
        () => this.#schedule(this.#options.intervalMs ?? DEFAULT_ARCHIVE_INTERVAL_MS),
        (error: unknown) => {
          this.#logger.warn('outbox.archive.failed', { error });
          this.#schedule(this.#options.intervalMs ?? DEFAULT_ARCHIVE_INTERVAL_MS);
        },
      );
    }, delayMs);
    this.#timer.unref();
  }
}
