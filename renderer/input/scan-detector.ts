import { DEFAULT_SCAN_MAX_GAP_MS } from '../../shared/ipc/status.ts';
import { hasWholeShape } from './code-shape.ts';

/**
 * Tells a barcode scanner from a person at a keyboard by the burst's shape: a scanner types its
 * characters a few milliseconds apart and ends them with its terminator, Enter; people type tens
 * of milliseconds apart. On a loaded machine the browser delivers a scanner's keystrokes in
 * batches, so one burst can arrive as pieces 100 to 300 ms apart: such a burst is read whole only
 * when the code it spells has a shape that proves it whole (`code-shape.ts`), and is otherwise
 * reported as broken, never handed on as the partial code its last piece spells. Pure: it is fed
 * key times and answers what an Enter ended.
 */
export interface ScanTiming {
  /** The longest gap between two characters of one scan (and before its Enter). */
  readonly maxGapMs: number;
  /** Fewer characters than this is a person pressing keys, not a code. */
  readonly minLength: number;
  /**
   * The longest gap that may still split one burst under load. Measured: at a load of 8.6 on the
   * 2-core kiosk, 5 scans of 15 arrived in pieces 100 to 300 ms apart (issue #37); at a load of 10
   * here a 300 ms pause between two pieces reached the page as 323 ms once and over 400 ms once.
   * Twice the worst pause seen; never below `maxGapMs`.
   */
  readonly jitterMs: number;
}

/** Scanners type 1 to 20 ms apart; the fastest people, over 60 ms. */
export const defaultScanTiming: ScanTiming = {
  maxGapMs: DEFAULT_SCAN_MAX_GAP_MS,
  minLength: 4,
  jitterMs: 600,
};

/**
 * What an Enter ended: a `code` read whole, or a burst `broken` by pauses whose code cannot be
 * trusted (staff are told and scan again).
 */
export type ScanOutcome =
  | { readonly kind: 'code'; readonly code: string }
  | { readonly kind: 'broken'; readonly code: string };

export class ScanDetector {
  readonly #timing: ScanTiming;
  #chars = '';
  #last = Number.NEGATIVE_INFINITY;
  /** Gaps within the scanner's rhythm, and the longer ones that may be jitter, in this burst. */
  #fast = 0;
  #slow = 0;

  constructor(timing: ScanTiming = defaultScanTiming) {
    this.#timing = timing;
  }

  get #jitterMs(): number {
    return Math.max(this.#timing.jitterMs, this.#timing.maxGapMs);
  }

  /** A printable character at `at` ms: true when it starts a new burst (a long gap before it). */
  character(char: string, at: number): boolean {
    const gap = at - this.#last;
    if (gap > this.#jitterMs) {
      this.#chars = char;
      this.#fast = 0;
      this.#slow = 0;
    } else {
      this.#chars += char;
      if (gap <= this.#timing.maxGapMs) this.#fast++;
      else this.#slow++;
    }
    this.#last = at;
    return this.#fast === 0 && this.#slow === 0;
  }

  /** Enter at `at` ms: what it ended, or null when it was a person's. Either way, a new start. */
  enter(at: number): ScanOutcome | null {
    const gap = at - this.#last;
    const code = this.#chars;
    let fast = this.#fast;
    let slow = this.#slow;
    this.reset();
    if (gap > this.#jitterMs || code.length < this.#timing.minLength) return null;
    if (gap <= this.#timing.maxGapMs) fast++;
    else slow++;
    if (slow === 0) return { kind: 'code', code };
    // A person's typing has a fast pair now and then (two keys rolled); a scanner's burst, even
    // broken up by load, is mostly fast pairs.
    if (fast < 2 * slow) return null;
    return hasWholeShape(code) ? { kind: 'code', code } : { kind: 'broken', code };
  }

  /** Any other key (a person navigating): whatever was typed is not a scan. */
  reset(): void {
    this.#chars = '';
    this.#last = Number.NEGATIVE_INFINITY;
    this.#fast = 0;
    this.#slow = 0;
  }
}
