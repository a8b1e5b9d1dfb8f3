import type { SyncKind, SyncPhase, SyncProgress } from '../../shared/ipc/catalog.ts';

export type ProgressListener = (progress: SyncProgress) => void;

/**
 * Counts pages and products and derives the rate and the time left. The rate is measured over
 * what this run fetched (a resumed full sync does not count the pages a previous process did).
 */
export class ProgressTracker {
  readonly #kind: SyncKind;
  readonly #now: () => number;
  readonly #listener: ProgressListener | undefined;
  readonly #startedAt: number;
  #phase: SyncPhase = 'referentials';
  #phaseStartedAt: number;
  #pagesDone = 0;
  #pagesTotal: number | null = null;
  #productsDone = 0;
  #productsTotal: number | null = null;
  #productsAtPhaseStart = 0;

  constructor(kind: SyncKind, now: () => number, listener?: ProgressListener) {
    this.#kind = kind;
    this.#now = now;
    this.#listener = listener;
    this.#startedAt = now();
    this.#phaseStartedAt = this.#startedAt;
  }

  phase(
    phase: SyncPhase,
    totals: {
      pagesDone?: number;
      pagesTotal?: number | null;
      productsDone?: number;
      productsTotal?: number | null;
    } = {},
  ): void {
    this.#phase = phase;
    this.#phaseStartedAt = this.#now();
    this.#pagesDone = totals.pagesDone ?? 0;
    this.#pagesTotal = totals.pagesTotal ?? null;
    this.#productsDone = totals.productsDone ?? 0;
    this.#productsTotal = totals.productsTotal ?? null;
    this.#productsAtPhaseStart = this.#productsDone;
    this.emit();
  }

  totals(pagesTotal: number | null, productsTotal: number | null): void {
    this.#pagesTotal = pagesTotal;
    this.#productsTotal = productsTotal;
  }

  page(products: number): void {
    this.#pagesDone += 1;
    this.#productsDone += products;
    this.emit();
  }

  get productsDone(): number {
    return this.#productsDone;
  }

  get pagesDone(): number {
    return this.#pagesDone;
  }

  snapshot(): SyncProgress {
    const now = this.#now();
    const seconds = (now - this.#phaseStartedAt) / 1000;
    const fetched = this.#productsDone - this.#productsAtPhaseStart;
    const rate = fetched > 0 && seconds > 0 ? fetched / seconds : null;
    let etaMs: number | null = null;
    if (this.#phase === 'done') etaMs = 0;
    else if (rate !== null && this.#productsTotal !== null) {
      etaMs = Math.max(0, ((this.#productsTotal - this.#productsDone) / rate) * 1000);
    } else if (this.#pagesTotal !== null && this.#pagesDone > 0 && seconds > 0) {
      etaMs = Math.max(
        0,
        ((this.#pagesTotal - this.#pagesDone) * seconds * 1000) / this.#pagesDone,
      );
    }
    return {
      kind: this.#kind,
      phase: this.#phase,
      pagesDone: this.#pagesDone,
      pagesTotal: this.#pagesTotal,
      productsDone: this.#productsDone,
      productsTotal: this.#productsTotal,
      productsPerSecond: rate,
      etaMs,
      elapsedMs: now - this.#startedAt,
    };
  }

  emit(): void {
    this.#listener?.(this.snapshot());
  }
}
