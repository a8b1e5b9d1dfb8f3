import { rmSync } from 'node:fs';
import type { Driver, DriverPool } from './driver-process.ts';
import { checkInvariants } from './invariants.ts';
import { seedReport, type SeedReport } from './report.ts';
import { EMAIL, type Slot, type SlotPool } from './sandbox-slot.ts';
import { kioskInput, note, prepareSeed, scheduleAccountEvents } from './seed-run.ts';
import { killsFor } from './scenario.ts';

/**
 * A round: `batch` seeds at once, each with its own sandbox and data directory, their kiosks in
 * one child process that is SIGKILLed at the round's kill moments and restarted on the same
 * directories until every kiosk is done; then each seed's invariants are checked.
 */

/** Runs rounds one after the other, with its own sandboxes and its own children. */
export interface Lane {
  readonly slots: SlotPool;
  readonly pool: DriverPool;
}

/**
 * Child runs of a round beyond which its seeds fail: something keeps the driver from finishing.
 * Each run ends with a kill (planned, or a `crash` step killing its process, once per step), or
 * with every kiosk done, paused (at most once a seed: one revocation, and no restart before the
 * restore) or out of time (a third time is a failure).
 */
function maxChildRuns(kills: number, crashes: number, seeds: number): number {
  return kills + crashes + seeds * 4 + 2;
}

export async function runRound(
  lane: Lane,
  seeds: readonly number[],
  workDir: string,
): Promise<SeedReport[]> {
  const slots = await lane.slots.take();
  try {
    return await runRoundOn(lane, slots, seeds, workDir);
  } finally {
    await lane.slots.release(slots);
  }
}

async function runRoundOn(
  lane: Lane,
  slots: readonly Slot[],
  seeds: readonly number[],
  workDir: string,
): Promise<SeedReport[]> {
  const runs = seeds.map((seed, index) => prepareSeed(seed, slots[index]!, index, workDir));
  const kills = killsFor(seeds[0]!);
  const crashes = runs.reduce(
    (sum, run) => sum + run.scenario.plan.filter((step) => step.lostReply === 'crash').length,
    0,
  );
  const maxRuns = maxChildRuns(kills.length, crashes, seeds.length);
  let killIndex = 0;
  let childRuns = 0;
  let driver: Driver | undefined;
  let killTimer: NodeJS.Timeout | undefined;
  try {
    for (;;) {
      const active = runs.filter((run) => run.status === 'todo');
      if (active.length === 0) break;
      if (childRuns >= maxRuns) {
        for (const run of active) run.problems.push(`the driver did not finish in ${maxRuns} runs`);
        break;
      }
      // A kiosk is never restarted while its account is revoked: it would only pause again.
      await Promise.all(active.filter((run) => run.revokedNow).map((run) => run.restored));
      const child = await lane.pool.take();
      driver = child;
      childRuns += 1;
      for (const run of active) {
        run.childRuns += 1;
        run.outcome = undefined;
      }
      const bySlot = new Map(active.map((run) => [run.index, run]));
      const killAt = killIndex < kills.length ? kills[killIndex] : undefined;
      // A `crash` step killed the child itself: the planned kill is still to come.
      let crashed = false;
      for (const run of active) {
        note(
          run,
          `child ${childRuns} (pid ${child.process.pid}) starts at plan step ${run.nextStep}` +
            (killAt === undefined ? '' : `, SIGKILL planned ${killAt} ms after ready`),
        );
      }
      child.start({ kiosks: active.map(kioskInput) }, (line, text) => {
        if (line.ready) {
          if (killAt !== undefined) killTimer = setTimeout(() => child.kill(), killAt);
          for (const run of active) scheduleAccountEvents(run);
          return;
        }
        const run = line.slot === undefined ? undefined : bySlot.get(line.slot);
        if (!run) return;
        note(run, text);
        if (line.ack) {
          run.acked.set(line.ack.key, line.ack);
          run.nextStep += 1;
        } else if (line.lostReply) {
          run.lostReplies += 1;
          if (line.lostReply.mode === 'crash') crashed = true;
        } else if (line.problem !== undefined) {
          run.problems.push(line.problem);
        } else if (line.refusedLocally) {
          run.problems.push(`an enqueue was refused locally (${line.refusedLocally.code})`);
          run.nextStep += 1;
        } else if (line.done) run.outcome = 'done';
        else if (line.paused) run.outcome = 'paused';
        else if (line.timeout) {
          run.outcome = 'timeout';
          run.timeoutDetail = JSON.stringify(line.timeout);
        }
      });
      const exit = await child.exited;
      if (killTimer) clearTimeout(killTimer);
      killTimer = undefined;
      for (const run of active)
        note(run, `child ${childRuns} ended: ${exit.signal ?? `exit code ${exit.code}`}`);
      const killed = exit.signal === 'SIGKILL';
      if (killed) {
        if (!crashed) killIndex += 1;
      } else if (exit.code !== 0) {
        for (const run of active)
          run.problems.push(`driver exited with code ${exit.code}: ${child.stderr.slice(-2_000)}`);
        break;
      }
      for (const run of active) {
        switch (run.outcome) {
          case 'done':
            if (run.nextStep >= run.scenario.plan.length) run.status = 'done';
            break;
          case 'paused':
            run.pauses += 1;
            if (!run.scenario.revoke) run.problems.push('the sender paused without a revocation');
            break;
          case 'timeout':
            run.timeouts += 1;
            if (run.timeouts > 2) {
              // Two full drains without a single fault (and one more to rule out a loaded
              // machine) did not empty the outbox: something holds rows back.
              run.problems.push(
                `the outbox did not drain even without faults (${run.timeoutDetail})`,
              );
              run.status = 'done';
            } else {
              // Faults outlasted the drain: clear them and let a fresh child finish.
              run.slot.control.clearFaults();
              note(run, 'faults cleared after a drain timeout');
            }
            break;
          case undefined:
            if (killed) run.kills += crashed ? 0 : 1;
            else run.problems.push('the driver ended without a word about this kiosk');
            break;
        }
      }
    }
  } finally {
    if (killTimer) clearTimeout(killTimer);
    // Only when the round itself failed: a child is never left running.
    if (driver?.alive) {
      driver.kill();
      await driver.exited;
    }
    for (const run of runs) {
      for (const timer of run.timers) clearTimeout(timer);
      run.restore();
      // A link dropped around a jump of the service's clock comes back for the checks.
      run.slot.control.endOutage();
    }
  }

  const reports: SeedReport[] = [];
  for (const run of runs) {
    const { control } = run.slot;
    control.restoreAccount(EMAIL);
    const faultsFired = run.armed.reduce((sum, { spec, id }) => {
      const live = control.faults().find((entry) => entry.id === id);
      return sum + (live ? live.fired : (spec.count ?? 0));
    }, 0);
    control.clearFaults();
    const check = await checkInvariants(
      run.slot,
      run.dataDir,
      run.scenario.plan,
      run.acked,
      run.problems,
      // Past its 24 h retention the service forgot the keys: a replay would be a new debit.
      { replay: (run.scenario.outcome?.serviceClockJumps.length ?? 0) === 0 },
    );
    rmSync(run.dataDir, { recursive: true, force: true });
    reports.push(seedReport(run, kills, check, faultsFired));
  }
  return reports;
}
