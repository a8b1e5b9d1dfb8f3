import { DEFAULT_SCAN_MAX_GAP_MS } from '../../shared/ipc/status.ts';

/**
 * Tells a barcode scanner from a person at a keyboard by rhythm: a scanner types a burst of
 * characters a few milliseconds apart and ends it with Enter; people type tens of milliseconds
 * apart. Pure: it is fed key times and answers whether an Enter ended a scan.
 */
export interface ScanTiming {
  /** The longest gap between two characters of one scan (and before its Enter). */
  readonly maxGapMs: number;
  /** Fewer characters than this is a person pressing keys, not a code. */
  readonly minLength: number;
}

/** Scanners type 1 to 20 ms apart; the fastest people, over 60 ms. */
export const defaultScanTiming: ScanTiming = { maxGapMs: DEFAULT_SCAN_MAX_GAP_MS, minLength: 4 };

export class ScanDetector {
  readonly #timing: ScanTiming;
  #chars = '';
  #last = Number.NEGATIVE_INFINITY;

  constructor(timing: ScanTiming = defaultScanTiming) {
    this.#timing = timing;
  }

  /** A printable character at `at` ms: true when it starts a new burst (a gap before it). */
  character(char: string, at: number): boolean {
    const fresh = at - this.#last > this.#timing.maxGapMs;
    this.#chars = fresh ? char : this.#chars + char;
    this.#last = at;
    return fresh;
  }

  /** Enter at `at` ms: the scanned code when it ends a burst, else null. Either way, a new start. */
  enter(at: number): string | null {
    const scanned =
      at - this.#last <= this.#timing.maxGapMs && this.#chars.length >= this.#timing.minLength
        ? this.#chars
        : null;
    this.reset();
    return scanned;
  }

  /** Any other key (a person navigating): whatever was typed is not a scan. */
  reset(): void {
    this.#chars = '';
    this.#last = Number.NEGATIVE_INFINITY;
  }
}
