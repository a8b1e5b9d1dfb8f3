import { globSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Benchmark, BenchResult, Measurement } from './benchmark.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface RunOptions {
  /** Where the table goes; tests pass a collector to keep their output clean. */
  readonly log?: (line: string) => void;
  /** Figures of an earlier run written back first: those of a benchmark this run has are dropped. */
  readonly kept?: readonly BenchResult[];
  /**
   * The name of every benchmark there is, in every file. A kept figure of any other name is
   * dropped: a benchmark renamed or removed since would otherwise leave its last figure behind,
   * read as current (a drain ratio of a parallelism no longer measured, say).
   */
  readonly existing?: ReadonlySet<string>;
}

/**
 * Runs the benchmarks one after the other (never in parallel: they would time each other),
 * prints a table and writes `outFile`. A benchmark that throws or returns a figure that is not a
 * finite number is reported by name after the others have run and been written; then the
 * harness throws, so `npm run bench` exits non-zero.
 */
export async function runBenchmarks(
  list: readonly Benchmark[],
  outFile: string,
  { log = console.log, kept = [], existing }: RunOptions = {},
): Promise<BenchResult[]> {
  const names = new Set<string>();
  for (const { name } of list) {
    if (names.has(name)) throw new Error(`two benchmarks are named "${name}"`);
    names.add(name);
  }

  const results: BenchResult[] = [];
  const failures: Error[] = [];
  for (const benchmark of list) {
    try {
      results.push(toResult(benchmark, await benchmark.run()));
    } catch (cause) {
      failures.push(new Error(`benchmark "${benchmark.name}" failed`, { cause }));
    }
  }

  if (results.length > 0) log(formatTable(results));
  const measured = new Set(list.map((benchmark) => benchmark.name));
  const stillKept = kept.filter(
    (result) => !measured.has(result.name) && (existing === undefined || existing.has(result.name)),
  );
  const written = [...stillKept, ...results];
  await writeFile(outFile, `${JSON.stringify(written, null, 2)}\n`);
  if (failures.length > 0) {
    throw new AggregateError(failures, `${failures.length} of ${list.length} benchmarks failed`);
  }
  return results;
}

function toResult({ name, unit }: Benchmark, { value, baseline, runs }: Measurement): BenchResult {
  if (!Number.isFinite(value)) throw new Error(`value is ${value}, not a finite number`);
  for (const run of [...(runs?.value ?? []), ...(runs?.baseline ?? [])]) {
    if (!Number.isFinite(run)) throw new Error(`a run is ${run}, not a finite number`);
  }
  const spread = runs === undefined ? {} : { runs };
  if (baseline === undefined) return { name, value, unit, ...spread };
  if (!Number.isFinite(baseline) || baseline <= 0) {
    throw new Error(`baseline is ${baseline}, not a finite number above 0`);
  }
  return { name, value, unit, baseline, ratio: value / baseline, ...spread };
}

function formatTable(results: readonly BenchResult[]): string {
  const figure = (n: number | undefined) => (n === undefined ? '' : n.toPrecision(4));
  const range = (list: readonly number[] | undefined) =>
    list === undefined || list.length === 0
      ? ''
      : `${figure(Math.min(...list))}-${figure(Math.max(...list))}`;
  const spread = ({ runs }: BenchResult) =>
    runs === undefined
      ? ''
      : [range(runs.value), range(runs.baseline)].filter(Boolean).join(' vs ');
  const rows = [
    ['benchmark', 'value', 'unit', 'baseline', 'ratio', 'runs (value vs baseline)'],
    ...results.map((r) => [
      r.name,
      figure(r.value),
      r.unit,
      figure(r.baseline),
      r.ratio === undefined ? '' : `${r.ratio.toFixed(3)}x`,
      spread(r),
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Every benchmark, with the file that declares it. */
async function discover(): Promise<{ file: string; benchmark: Benchmark }[]> {
  const files = globSync('test/bench/**/*.bench.ts', { cwd: repoRoot }).sort();
  const found: { file: string; benchmark: Benchmark }[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(resolve(repoRoot, file)).href)) as {
      default?: unknown;
    };
    if (!Array.isArray(module.default)) {
      throw new Error(`${file} must export a default list of benchmarks`);
    }
    for (const benchmark of module.default as Benchmark[]) found.push({ file, benchmark });
  }
  return found;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // `npm run bench -- catalog outbox` runs only the files whose path contains one of the words.
  const filters = process.argv.slice(2);
  const found = await discover();
  const list = found
    .filter(({ file }) => filters.length === 0 || filters.some((word) => file.includes(word)))
    .map(({ benchmark }) => benchmark);
  if (list.length === 0) console.log('no benchmarks found (test/bench/**/*.bench.ts)');
  const outFile = resolve(repoRoot, 'bench-results.json');
  // A partial run replaces its own figures only: the others are read back and kept.
  let kept: BenchResult[] = [];
  if (filters.length > 0) {
    try {
      kept = JSON.parse(await readFile(outFile, 'utf8')) as BenchResult[];
    } catch {
      // No earlier run, or one that cannot be read: this run's figures alone.
    }
  }
  const existing = new Set(found.map(({ benchmark }) => benchmark.name));
  await runBenchmarks(list, outFile, { kept, existing });
}
