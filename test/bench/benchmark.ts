/**
 * One figure of `npm run bench`. A benchmark that has a reference point measures it in the same
 * run and returns it as `baseline`: the harness reports `ratio = value / baseline`, so a target
 * reads the same on a fast or a slow machine ("the outbox adds < 1.2x over a bare insert").
 */
export interface Benchmark {
  readonly name: string;
  /** What `value` and `baseline` are counted in: `ms`, `ops/s`, `bytes`... */
  readonly unit: string;
  run(): Promise<Measurement>;
}

export interface Measurement {
  readonly value: number;
  readonly baseline?: number;
  /** The runs a best-of or median figure was taken from (see `Runs`). */
  readonly runs?: Runs;
}

/**
 * Every run behind a figure that is the best or the median of several, each side's in the order
 * measured. On a shared machine the spread tells a figure near its bar by noise from one that is
 * there by cost.
 */
export interface Runs {
  readonly value: readonly number[];
  readonly baseline?: readonly number[];
}

/** One entry of bench-results.json. */
export interface BenchResult {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly baseline?: number;
  readonly ratio?: number;
  readonly runs?: Runs;
}
