import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DriverPool } from './driver-process.ts';
import {
  harnessFailure,
  summaryLine,
  tortureReport,
  type SeedReport,
  type TortureReport,
} from './report.ts';
import { runRound, type Lane } from './round.ts';
import { SlotPool } from './sandbox-slot.ts';

/**
 * The outbox torture test. For each seed: a sandbox of its own with random faults (on the
 * debit, sometimes on every route), a kiosk in a child process (driver.ts) that accepts a few
 * debits and drains them, the integration account revoked then restored at a random moment, the
 * service's clock jumped past the token lifetime. Each debit is a logical debit with its request
 * id: some replies are lost on purpose (the request sent again at once, or the process killed
 * right after the commit), and every restart sends the unacknowledged step again with its id, so
 * each logical debit must end as exactly one row and at most one ledger entry. Seeds run in rounds: one child process runs
 * the kiosks of a round side by side (each with its own data directory and its own sandbox), is
 * SIGKILLed at random moments and restarted on the same directories until every kiosk is done;
 * sharing the process is what keeps hundreds of seeds within a few minutes, as most of a child's
 * cost is loading the client.
 *
 * About four seeds in ten also play the cases where a debit's outcome may stay unknown
 * (`OutcomeCase`, scenario.ts): a service whose usage lists are always empty, or filled but never
 * verified by a contract check; the integration profile changed between attempts (the bodies
 * rebuilt); the service's clock moved 25 h or 73 h (its keys forgotten after 24 h) between sending
 * and recording; the kiosk's wall clock stepped. There a row may end held as "outcome unknown"
 * for a person: then the ledger has it at most once, and it was neither expired nor refused.
 *
 * At the end, with the faults cleared, each kiosk's rows are checked against its sandbox's ledger
 * of applied debits, and each settled row is replayed against the service (same key, same body):
 * the service must answer what the row says. See `checkInvariants` (invariants.ts).
 *
 * A seed fixes its plan, faults, revocation and token-expiry times; the kill times are fixed by
 * the round's first seed. Nothing carries over from one round to the next (fresh sandboxes, data
 * directories and child processes). Real time still decides the interleaving, so a failing round
 * is re-run as it was (`npm run torture -- --seed <first> --runs <n> --batch <n>`), a few times if
 * needed; the report of a failing seed has its scenario, rows, the service's ledger and what each
 * child process said about it (TORTURE_TRACE=1 also prints every line of every child).
 *
 * The parts: scenario.ts (what a seed does), round.ts (a round of seeds in one child process),
 * seed-run.ts (one seed inside its round), driver.ts (the child) and driver-process.ts (the child
 * seen from here), sandbox-slot.ts (a sandbox per seed), invariants.ts (the checks), report.ts.
 */

export interface TortureOptions {
  readonly runs: number;
  /** The first seed; the others follow it. */
  readonly baseSeed: number;
  /** Rounds run side by side, each lane with its own sandboxes and its own children. */
  readonly lanes: number;
  /**
   * Seeds per round: one child process runs one kiosk per seed of the round (each with its own
   * data directory and sandbox), so a start-up is shared and a SIGKILL hits them all at once.
   */
  readonly batch: number;
  readonly onRound?: (done: number, total: number) => void;
  readonly log: (line: string) => void;
}

export async function runTorture(options: TortureOptions): Promise<TortureReport> {
  const started = performance.now();
  const workDir = mkdtempSync(join(tmpdir(), 'outbox-torture-'));
  const cacheDir = join(tmpdir(), 'commerce-kiosk-torture-compile-cache');
  mkdirSync(cacheDir, { recursive: true });
  const batch = Math.max(1, options.batch);
  const seeds = Array.from({ length: options.runs }, (_, i) => (options.baseSeed + i) >>> 0);
  // Rounds are fixed by the base seed and the batch size, whatever the number of lanes, so a
  // failing round can be run again as it was.
  const rounds: number[][] = [];
  for (let i = 0; i < seeds.length; i += batch) rounds.push(seeds.slice(i, i + batch));
  const reports: SeedReport[] = [];
  let next = 0;

  const laneCount = Math.max(1, Math.min(options.lanes, rounds.length));
  const slotCount = Math.min(batch, seeds.length);
  const lanes: Lane[] = Array.from({ length: laneCount }, () => ({
    slots: new SlotPool(slotCount),
    pool: new DriverPool(cacheDir),
  }));
  try {
    // Settled, not all: a lane that throws must not let the cleanup below run under the others.
    const outcomes = await Promise.allSettled(
      lanes.map(async (lane) => {
        while (next < rounds.length) {
          const round = rounds[next++]!;
          let roundReports: SeedReport[];
          try {
            roundReports = await runRound(lane, round, workDir);
          } catch (error) {
            roundReports = round.map((seed) => harnessFailure(seed, error));
          }
          reports.push(...roundReports);
          for (const report of roundReports.filter((entry) => !entry.ok)) {
            options.log(
              `seed ${report.seed} FAILED:\n  ${report.problems.join('\n  ')}\n` +
                (report.detail ? `${report.detail}\n` : '') +
                `  replay its round: npm run torture -- --seed ${round[0]} --runs ${round.length} --batch ${batch}` +
                ` (real time decides the interleaving: it may take a few tries)`,
            );
          }
          options.onRound?.(reports.length, seeds.length);
        }
      }),
    );
    for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
  } finally {
    // Every child killed and every sandbox closed, whatever happened: a finished run must exit.
    await Promise.allSettled(lanes.flatMap((lane) => [lane.pool.close(), lane.slots.close()]));
    rmSync(workDir, { recursive: true, force: true });
  }

  const report = tortureReport(options.baseSeed, reports, Math.round(performance.now() - started));
  options.log(summaryLine(report, options.runs, batch));
  return report;
}
