/**
 * `npm run torture -- [--runs <n>] [--seed <first seed>] [--lanes <n>]`: the outbox torture test
 * outside vitest, for long runs and for replaying a failing seed. Exits 1 when a seed failed.
 */
import { parseArgs } from 'node:util';
import { runTorture } from './harness.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '200' },
    seed: { type: 'string' },
    lanes: { type: 'string', default: '2' },
    batch: { type: 'string', default: '4' },
  },
  strict: true,
});

const integer = (text: string, name: string): number => {
  if (!/^\d+$/.test(text))
    throw new Error(`--${name} expects a non-negative integer, got "${text}"`);
  return Number(text);
};

const report = await runTorture({
  runs: integer(values.runs, 'runs'),
  baseSeed:
    values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : integer(values.seed, 'seed'),
  lanes: Math.max(1, integer(values.lanes, 'lanes')),
  batch: Math.max(1, integer(values.batch, 'batch')),
  log: (line) => console.log(line),
});
// Exit explicitly: nothing may keep a finished run alive (and busy) on a shared machine.
process.exit(report.failedSeeds.length === 0 ? 0 : 1);
