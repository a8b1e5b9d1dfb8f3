import { describe, expect, it } from 'vitest';
import { runTorture } from './harness.ts';

/**
 * The outbox torture test in the normal run: 200 randomized seeds by default, a few minutes at
 * most on two cores. TORTURE_RUNS, TORTURE_SEED (the first seed; random when absent),
 * TORTURE_LANES and TORTURE_BATCH change it; `npm run torture -- --runs <n>` runs longer outside
 * vitest. What each seed does and checks is described in harness.ts.
 */

const env = (name: string, fallback: number): number => {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  if (!/^\d+$/.test(text)) throw new Error(`${name} must be a non-negative integer, got "${text}"`);
  return Number(text);
};

describe('outbox torture', () => {
  it(
    'every logical debit is one row, applied exactly once or refused/failed as the service says, or held as unknown when nothing proves its outcome, through lost replies, kills, faults, revocations, empty usage lists, profile changes and clock jumps',
    async () => {
      const lines: string[] = [];
      const report = await runTorture({
        runs: env('TORTURE_RUNS', 200),
        baseSeed: env('TORTURE_SEED', Math.floor(Math.random() * 2 ** 31)),
        lanes: env('TORTURE_LANES', 2),
        batch: env('TORTURE_BATCH', 4),
        log: (line) => {
          lines.push(line);
          console.log(line);
        },
      });
      expect(report.failedSeeds, lines.join('\n')).toEqual([]);
      // The run must have tortured something, or it proves nothing.
      if (report.runs >= 50) {
        expect(report.totals.kills).toBeGreaterThan(0);
        expect(report.totals.lostReplies).toBeGreaterThan(0);
        // Every row was acknowledged: a retry after a lost reply or a kill got its row back.
        expect(report.totals.unacknowledgedRows).toBe(0);
        expect(report.totals.rows).toBe(report.totals.debits);
        expect(report.totals.faultsFired).toBeGreaterThan(0);
        expect(report.totals.applied).toBeGreaterThan(0);
        expect(report.totals.refused).toBeGreaterThan(0);
        expect(report.totals.failed).toBeGreaterThan(0);
        expect(report.totals.revocations).toBeGreaterThan(0);
        // Empty or unverified usages, profile changes, service and kiosk clock jumps were played.
        expect(report.totals.outcomeCases).toBeGreaterThan(0);
      }
    },
    15 * 60_000,
  );
});
