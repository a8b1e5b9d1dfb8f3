import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { Benchmark } from './benchmark.ts';
import { runBenchmarks } from './run.ts';

let dir: string;
let outFile: string;
const lines: string[] = [];
const log = (line: string) => lines.push(line);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bench-harness-'));
  outFile = join(dir, 'bench-results.json');
  lines.length = 0;
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const readResults = async () => JSON.parse(await readFile(outFile, 'utf8')) as unknown;

test('computes the ratio against a baseline measured in the same run and writes every figure', async () => {
  const list: Benchmark[] = [
    { name: 'with baseline', unit: 'ms', run: async () => ({ value: 3, baseline: 2 }) },
    { name: 'alone', unit: 'ops/s', run: async () => ({ value: 1200 }) },
  ];

  const results = await runBenchmarks(list, outFile, { log });

  const expected = [
    { name: 'with baseline', value: 3, unit: 'ms', baseline: 2, ratio: 1.5 },
    { name: 'alone', value: 1200, unit: 'ops/s' },
  ];
  expect(results).toEqual(expected);
  expect(await readResults()).toEqual(expected);
  // A figure without a baseline has no ratio key at all, not a null one.
  expect(Object.keys(results[1]!)).toEqual(['name', 'value', 'unit']);
  const table = lines.join('\n');
  expect(table).toMatch(/with baseline\s+3\.000\s+ms\s+2\.000\s+1\.500x/);
  expect(table).toMatch(/alone\s+1200\s+ops\/s/);
});

test('keeps the runs a figure was taken from, and prints their spread', async () => {
  const runs = { value: [5, 3, 4], baseline: [2, 2.5, 3] };
  const list: Benchmark[] = [
    { name: 'best of three', unit: 'MB', run: async () => ({ value: 3, baseline: 2, runs }) },
    { name: 'one run', unit: 'ms', run: async () => ({ value: 7, baseline: 7 }) },
  ];

  const results = await runBenchmarks(list, outFile, { log });

  const expected = [
    { name: 'best of three', value: 3, unit: 'MB', baseline: 2, ratio: 1.5, runs },
    { name: 'one run', value: 7, unit: 'ms', baseline: 7, ratio: 1 },
  ];
  expect(results).toEqual(expected);
  expect(await readResults()).toEqual(expected);
  const table = lines.join('\n');
  expect(table).toMatch(
    /best of three\s+3\.000\s+MB\s+2\.000\s+1\.500x\s+3\.000-5\.000 vs 2\.000-3\.000$/m,
  );
  expect(table).toMatch(/one run\s+7\.000\s+ms\s+7\.000\s+1\.000x$/m);
});

test('a run that is not a finite number fails its benchmark', async () => {
  const list: Benchmark[] = [
    {
      name: 'lost run',
      unit: 'ms',
      run: async () => ({ value: 1, baseline: 1, runs: { value: [1, Number.NaN] } }),
    },
  ];

  const failure = await runBenchmarks(list, outFile, { log }).catch((error: unknown) => error);

  expect(failure).toBeInstanceOf(AggregateError);
  const [cause] = (failure as AggregateError).errors as Error[];
  expect(cause?.message).toBe('benchmark "lost run" failed');
  expect((cause?.cause as Error).message).toBe('a run is NaN, not a finite number');
  expect(await readResults()).toEqual([]);
});

test('runs the benchmarks one after the other, in the order given', async () => {
  const events: string[] = [];
  const step = (name: string): Benchmark => ({
    name,
    unit: 'ms',
    run: async () => {
      events.push(`start ${name}`);
      await new Promise((done) => setTimeout(done, 5));
      events.push(`end ${name}`);
      return { value: 1 };
    },
  });

  await runBenchmarks([step('a'), step('b')], outFile, { log });

  expect(events).toEqual(['start a', 'end a', 'start b', 'end b']);
});

test('a failing benchmark is named, the others are still written, and the run fails', async () => {
  const list: Benchmark[] = [
    {
      name: 'broken',
      unit: 'ms',
      run: async () => {
        throw new Error('boom');
      },
    },
    { name: 'zero baseline', unit: 'ms', run: async () => ({ value: 1, baseline: 0 }) },
    { name: 'not a number', unit: 'ms', run: async () => ({ value: Number.NaN }) },
    { name: 'fine', unit: 'ms', run: async () => ({ value: 4, baseline: 8 }) },
  ];

  const failure = await runBenchmarks(list, outFile, { log }).catch((error: unknown) => error);

  expect(failure).toBeInstanceOf(AggregateError);
  const { message, errors } = failure as AggregateError;
  expect(message).toBe('3 of 4 benchmarks failed');
  expect(errors.map((error: Error) => error.message)).toEqual([
    'benchmark "broken" failed',
    'benchmark "zero baseline" failed',
    'benchmark "not a number" failed',
  ]);
  expect(await readResults()).toEqual([
    { name: 'fine', value: 4, unit: 'ms', baseline: 8, ratio: 0.5 },
  ]);
});

test('refuses two benchmarks with the same name before running any', async () => {
  let ran = false;
  const run = async () => {
    ran = true;
    return { value: 1 };
  };

  await expect(
    runBenchmarks(
      [
        { name: 'same', unit: 'ms', run },
        { name: 'same', unit: 'ms', run },
      ],
      outFile,
      { log },
    ),
  ).rejects.toThrow('two benchmarks are named "same"');
  expect(ran).toBe(false);
});

test('a partial run keeps the earlier figures it does not measure and replaces those it does', async () => {
  const kept = [
    { name: 'measured again', value: 9, unit: 'ms' },
    { name: 'not in this run', value: 5, unit: 'ms', baseline: 2, ratio: 2.5 },
  ];
  const list: Benchmark[] = [
    { name: 'measured again', unit: 'ms', run: async () => ({ value: 3 }) },
  ];

  await runBenchmarks(list, outFile, { log, kept });

  expect(await readResults()).toEqual([
    { name: 'not in this run', value: 5, unit: 'ms', baseline: 2, ratio: 2.5 },
    { name: 'measured again', value: 3, unit: 'ms' },
  ]);
});

test('a kept figure of a benchmark that no longer exists is dropped, not left to read as current', async () => {
  const kept = [
    { name: 'still there', value: 5, unit: 'ms' },
    { name: 'renamed since', value: 0.55, unit: 'x', baseline: 1, ratio: 0.55 },
  ];
  const list: Benchmark[] = [{ name: 'measured', unit: 'ms', run: async () => ({ value: 3 }) }];
  const existing = new Set(['still there', 'measured']);

  await runBenchmarks(list, outFile, { log, kept, existing });

  expect(await readResults()).toEqual([
    { name: 'still there', value: 5, unit: 'ms' },
    { name: 'measured', value: 3, unit: 'ms' },
  ]);
});
