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
}

/** One entry of bench-results.json. */
export interface BenchResult {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly baseline?: number;
  readonly ratio?: number;
}
