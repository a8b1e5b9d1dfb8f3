import type { IntegrationProfile } from '../../shared/profile/index.ts';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { CatalogStatus, SyncKind, SyncProgress } from '../../shared/ipc/catalog.ts';
import { Forbidden, isCommerceApiError, RetryAfterError } from '../api/index.ts';
import { type Clock, systemClock, TypedEmitter } from '../foundation/index.ts';
import { type Logger, silentLogger } from '../logging/index.ts';
import { type KioskDatabase, Lease } from '../storage/index.ts';
import { type ChangeFeedResult, runChangeFeed } from './change-feed.ts';
import { CatalogError } from './errors.ts';
import { type FullSyncResult, runFullSync } from './full-sync.ts';
import { CatalogMirror } from './mirror.ts';
import { ProgressTracker } from './progress.ts';
import type { CatalogSource } from './source.ts';
import { isFullSyncDue, readStatus } from './status.ts';
import type { SyncRunOptions } from './sync-run.ts';

export interface CatalogSyncOptions {
  readonly database: KioskDatabase;
  readonly source: CatalogSource;
  readonly clock?: Clock;
  /** Full resynchronisation period, to correct drift (default: daily). */
  readonly fullResyncIntervalMs?: number;
  /** Change-feed period of `start()` (default: one minute). */
  readonly changeFeedIntervalMs?: number;
  /** Page size of the catalogue and the change feed (default: the spec's maximum). */
  readonly pageSize?: number;
  /** An interrupted full sync younger than this continues from its last page (default 6 h). */
  readonly resumeFullSyncWithinMs?: number;
  /** A change-feed window bigger than this runs a full sync instead (default 20,000 changes). */
  readonly fullSyncAboveChanges?: number;
  /** The sync lease between the kiosk app and kioskctl (default 60 s, renewed every page). */
  readonly leaseTtlMs?: number;
  /**
   * A sync that fails on a transient error after the client's own retries (a long 429/503 storm,
   * a timeout) waits and carries on, up to this many times (default 5): a full sync from its last
   * committed page, the change feed from its cursor. An unreachable service ends the run; the
   * loop's next one resumes the same way.
   */
  readonly transientRetries?: number;
  /**
   * First wait of those retries, doubled each time up to 30 s (default 1 s), each drawn in its
   * upper half so kiosks failing together do not retry together; a Retry-After is honoured.
   */
  readonly transientBackoffMs?: number;
  /** Uniform in [0, 1): the retries' jitter. */
  readonly random?: () => number;
  readonly logger?: Logger;
  /** The integration profile in force, read at each run (default: the sandbox's dialect). */
  readonly profile?: () => IntegrationProfile;
}

export interface SyncRequest {
  /** Run a full synchronisation even when the change feed would do. */
  readonly full?: boolean;
  readonly signal?: AbortSignal;
}

export interface SyncOutcome {
  readonly kind: SyncKind;
  readonly fullSync: FullSyncResult | null;
  readonly window: Extract<ChangeFeedResult, { outcome: 'applied' }> | null;
  /** From the lease taken to the mirror up to date, retries of transient failures included. */
  readonly durationMs: number;
}

export interface CatalogSyncEvents extends Record<string, unknown> {
  progress: SyncProgress;
  synced: SyncOutcome;
  failed: {
    readonly code: string;
    readonly message: string;
    readonly missingScopes?: readonly string[];
    readonly durationMs: number;
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;
const LEASE_NAME = 'catalog-sync';

/**
 * Keeps the catalogue mirror up to date: a full synchronisation first and then periodically
 * (drift), the change feed in between. One synchronisation at a time per data directory (a lease
 * shared with kioskctl) and per process (calls made while one runs join it).
 */
export class CatalogSyncService {
  readonly events = new TypedEmitter<CatalogSyncEvents>();
  readonly mirror: CatalogMirror;
  readonly #source: CatalogSource;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #options: CatalogSyncOptions;
  readonly #owner = `${hostname()}:${process.pid}:${randomUUID()}`;
  #running: { promise: Promise<SyncOutcome>; full: boolean } | undefined;
  #progress: SyncProgress | null = null;
  #loop: { controller: AbortController; done: Promise<void> } | undefined;

  constructor(options: CatalogSyncOptions) {
    this.#options = options;
    this.mirror = new CatalogMirror(options.database);
    this.#source = options.source;
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger ?? silentLogger;
  }

  get #random(): () => number {
    return this.#options.random ?? Math.random;
  }

  get fullResyncIntervalMs(): number {
    return this.#options.fullResyncIntervalMs ?? DAY_MS;
  }

  status(): CatalogStatus {
    return readStatus(this.mirror, {
      now: this.#clock.now(),
      fullResyncIntervalMs: this.fullResyncIntervalMs,
      syncing: this.#progress,
    });
  }

  /**
   * Brings the mirror up to date: the change feed, or a full synchronisation when asked, when
   * none completed yet, when one was interrupted, or when the periodic one is due.
   */
  async sync(request: SyncRequest = {}): Promise<SyncOutcome> {
    const running = this.#running;
    if (running !== undefined) {
      if (!request.full || running.full) return running.promise;
      await running.promise.catch(() => undefined);
      return this.sync(request);
    }
    const promise = this.#run(request);
    this.#running = { promise, full: request.full ?? false };
    try {
      return await promise;
    } finally {
      this.#running = undefined;
    }
  }

  /** Synchronises now, then every `changeFeedIntervalMs` until `stop()`. */
  start(): void {
    if (this.#loop !== undefined) return;
    const controller = new AbortController();
    const interval = this.#options.changeFeedIntervalMs ?? 60_000;
    const done = (async () => {
      while (!controller.signal.aborted) {
        let failed = false;
        try {
          await this.sync({ signal: controller.signal });
        } catch (error) {
          if (controller.signal.aborted) break;
          failed = true;
          this.#logger.warn('catalog.sync.failed', { code: codeOf(error) });
        }
        // After a failure, at this kiosk's own moment of the second half of the interval.
        const wait = failed ? interval / 2 + this.#random() * (interval / 2) : interval;
        try {
          await this.#clock.sleep(wait, controller.signal);
        } catch {
          break;
        }
      }
    })();
    this.#loop = { controller, done };
  }

  async stop(): Promise<void> {
    const loop = this.#loop;
    if (loop === undefined) return;
    this.#loop = undefined;
    loop.controller.abort(new Error('catalogue sync stopped'));
    await loop.done;
  }

  async #run(request: SyncRequest): Promise<SyncOutcome> {
    const startedAt = this.#clock.now();
    const lease = new Lease(this.#options.database, {
      name: LEASE_NAME,
      owner: this.#owner,
      ttlMs: this.#options.leaseTtlMs ?? 60_000,
      now: () => this.#clock.now(),
    });
    if (!lease.tryAcquire()) {
      const holder = lease.holder();
      throw new CatalogError(
        'CATALOG_SYNC_BUSY',
        `another process is synchronising the catalogue (${holder?.owner ?? 'unknown'}, lease until ${holder ? new Date(holder.expiresAt).toISOString() : '?'})`,
      );
    }
    const renew = () => {
      if (!lease.renew()) {
        throw new CatalogError('CATALOG_SYNC_BUSY', 'the sync lease was lost to another process');
      }
    };
    try {
      const outcome: SyncOutcome = {
        ...(await this.#withTransientRetries(request, () => this.#syncHeld(request, renew))),
        durationMs: this.#clock.now() - startedAt,
      };
      this.mirror.transaction(() => {
        this.mirror.state.delete('forbidden');
        this.mirror.state.delete('lastError');
      });
      this.events.emit('synced', outcome);
      return outcome;
    } catch (error) {
      throw this.#failed(error, this.#clock.now() - startedAt);
    } finally {
      this.#progress = null;
      try {
        lease.release();
      } catch (error) {
        this.#logger.warn('catalog.lease.release_failed', { code: codeOf(error) });
      }
    }
  }

  async #withTransientRetries<T>(request: SyncRequest, work: () => Promise<T>): Promise<T> {
    const retries = this.#options.transientRetries ?? 5;
    let delay = this.#options.transientBackoffMs ?? 1_000;
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await work();
      } catch (error) {
        if (attempt >= retries || !isTransient(error) || request.signal?.aborted) throw error;
        this.#logger.info('catalog.sync.transient_failure', {
          code: codeOf(error),
          attempt,
          delay,
        });
        const retryAfterMs = error instanceof RetryAfterError ? (error.retryAfterMs ?? 0) : 0;
        await this.#clock.sleep(
          Math.max(retryAfterMs, delay / 2 + this.#random() * (delay / 2)),
          request.signal,
        );
        delay = Math.min(delay * 2, 30_000);
      }
    }
  }

  async #syncHeld(
    request: SyncRequest,
    renew: () => void,
  ): Promise<Omit<SyncOutcome, 'durationMs'>> {
    const { state } = this.mirror;
    const now = this.#clock.now();
    const needsFull =
      request.full === true ||
      state.get('cursor') === undefined ||
      state.get('fullSyncProgress') !== undefined ||
      isFullSyncDue(state.get('lastFullSync') ?? null, now, this.fullResyncIntervalMs);
    if (!needsFull) {
      const window = await this.#changes(request, renew, true);
      if (window.outcome === 'applied') return { kind: 'changes', fullSync: null, window };
      this.#logger.info('catalog.sync.window_too_big', { changes: window.changes });
    }
    const fullSync = await runFullSync(this.mirror, this.#source, {
      ...this.#runOptions('full', request, renew),
      ...(this.#options.resumeFullSyncWithinMs === undefined
        ? {}
        : { resumeWithinMs: this.#options.resumeFullSyncWithinMs }),
    });
    this.#logger.info('catalog.sync.full_done', {
      products: fullSync.products,
      pages: fullSync.pages,
      durationMs: fullSync.durationMs,
      resumed: fullSync.resumed,
    });
    // What changed while the pages were read (the cursor starts before the first one).
    const window = await this.#changes(request, renew, false);
    return {
      kind: 'full',
      fullSync,
      window: window.outcome === 'applied' ? window : null,
    };
  }

  #changes(request: SyncRequest, renew: () => void, mayEscalate: boolean) {
    return runChangeFeed(this.mirror, this.#source, {
      ...this.#runOptions('changes', request, renew),
      ...(mayEscalate ? { fullSyncAbove: this.#options.fullSyncAboveChanges ?? 20_000 } : {}),
    });
  }

  #runOptions(kind: SyncKind, request: SyncRequest, renew: () => void): SyncRunOptions {
    return {
      now: () => this.#clock.now(),
      progress: this.#tracker(kind),
      signal: request.signal,
      ...(this.#options.pageSize === undefined ? {} : { pageSize: this.#options.pageSize }),
      heartbeat: renew,
      ...(this.#options.profile === undefined ? {} : { profile: this.#options.profile() }),
    };
  }

  #tracker(kind: SyncKind): ProgressTracker {
    return new ProgressTracker(
      kind,
      () => this.#clock.now(),
      (progress) => {
        this.#progress = progress;
        this.events.emit('progress', progress);
      },
    );
  }

  /** Records the failure in the status and turns a 403 into the mirror's typed refusal. */
  #failed(error: unknown, durationMs: number): unknown {
    const at = new Date(this.#clock.now()).toISOString();
    let result = error;
    if (error instanceof Forbidden) {
      result = new CatalogError(
        'CATALOG_FORBIDDEN',
        `the integration account cannot read the catalogue${error.missingScopes.length > 0 ? `: missing ${error.missingScopes.join(', ')}` : ''}; lookups go to the service instead`,
        { cause: error, missingScopes: error.missingScopes },
      );
    }
    const code = codeOf(result);
    const message = result instanceof Error ? result.message : String(result);
    try {
      this.mirror.transaction(() => {
        if (error instanceof Forbidden) {
          this.mirror.state.set('forbidden', { missingScopes: error.missingScopes, message, at });
        }
        // Another process's sync is not this mirror's failure.
        if (code !== 'CATALOG_SYNC_BUSY') this.mirror.state.set('lastError', { code, message, at });
      });
    } catch (stateError) {
      this.#logger.error('catalog.state.write_failed', { code: codeOf(stateError) });
    }
    this.events.emit('failed', {
      code,
      message,
      durationMs,
      ...(result instanceof CatalogError && result.missingScopes.length > 0
        ? { missingScopes: result.missingScopes }
        : {}),
    });
    return result;
  }
}

/**
 * Failures that say "not now" rather than "no", from a service that answers: worth another try
 * after a pause. An unreachable service is left to the loop's next run (the client has already
 * retried): kiosks polling a dead service every few seconds would all find it back in the same
 * second and come back together.
 */
function isTransient(error: unknown): boolean {
  if (!isCommerceApiError(error)) return false;
  switch (error.kind) {
    case 'RateLimited':
    case 'ServiceUnavailable':
    case 'InternalError':
    case 'Timeout':
      return true;
    default:
      return false;
  }
}

function codeOf(error: unknown): string {
  if (error instanceof CatalogError || isCommerceApiError(error)) return error.code;
  if (error instanceof Error && error.name === 'AbortError') return 'ABORTED';
  return 'UNEXPECTED';
}
