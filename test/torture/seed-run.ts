import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import type { FaultSpec } from '../../sandbox/index.ts';
import type { KioskInput } from './driver.ts';
import type { Ack } from './driver-process.ts';
import { EMAIL, type Slot } from './sandbox-slot.ts';
import { shopIds } from '../../sandbox/data/referentials.ts';
import { scenarioFor, type Scenario } from './scenario.ts';

/**
 * One seed inside its round: its sandbox with the scenario's faults armed, its data directory,
 * what its kiosk acknowledged so far, the revocation and clock jump timed against it, and a
 * timeline for the report of a failing seed.
 */
export interface SeedRun {
  readonly seed: number;
  readonly slot: Slot;
  readonly index: number;
  readonly scenario: Scenario;
  readonly dataDir: string;
  readonly armed: readonly { readonly spec: FaultSpec; readonly id: string }[];
  readonly problems: string[];
  readonly acked: Map<string, Ack>;
  readonly timers: NodeJS.Timeout[];
  /** What happened to this kiosk, child by child, for the report of a failing seed. */
  readonly timeline: string[];
  nextStep: number;
  kills: number;
  /** Replies lost on purpose (`lostReply` steps that ran), each followed by the same request. */
  lostReplies: number;
  childRuns: number;
  pauses: number;
  status: 'todo' | 'done';
  /** The last word of the current child about this kiosk. */
  outcome: 'done' | 'paused' | 'timeout' | undefined;
  timeouts: number;
  timeoutDetail: string;
  scheduled: boolean;
  revokedNow: boolean;
  restored: Promise<void>;
  restore: () => void;
  readonly started: number;
}

export const TIMELINE_LIMIT = 300;

/** How long the link is down around a jump of the service's clock (`scheduleAccountEvents`). */
export const SERVICE_JUMP_OUTAGE_MS = 800;

export function note(run: SeedRun, text: string): void {
  if (run.timeline.length < TIMELINE_LIMIT)
    run.timeline.push(`${Math.round(performance.now() - run.started)} ms: ${text}`);
}

export function prepareSeed(seed: number, slot: Slot, index: number, workDir: string): SeedRun {
  const scenario = scenarioFor(seed);
  const armed = scenario.faults.map((spec) => ({ spec, id: slot.control.addFault(spec).id }));
  // A service whose usage lists are always empty, as many real ones answer.
  slot.control.setEmptyUsages(scenario.outcome?.emptyUsages ?? false);
  return {
    seed,
    slot,
    index,
    scenario,
    dataDir: mkdtempSync(join(workDir, `seed-${seed}-`)),
    armed,
    problems: [],
    acked: new Map(),
    timers: [],
    timeline: [],
    nextStep: 0,
    kills: 0,
    lostReplies: 0,
    childRuns: 0,
    pauses: 0,
    status: 'todo',
    outcome: undefined,
    timeouts: 0,
    timeoutDetail: '',
    scheduled: false,
    revokedNow: false,
    restored: Promise.resolve(),
    restore: () => {},
    started: performance.now(),
  };
}

/** Revocation and token expiry of one seed, timed from the first moment its kiosk is ready. */
export function scheduleAccountEvents(run: SeedRun): void {
  if (run.scheduled) return;
  run.scheduled = true;
  const { control } = run.slot;
  const { revoke, tokenExpiryAtMs } = run.scenario;
  if (revoke) {
    run.timers.push(
      setTimeout(() => {
        run.revokedNow = true;
        run.restored = new Promise((resolve) => {
          run.restore = () => {
            control.restoreAccount(EMAIL);
            run.revokedNow = false;
            note(run, 'account restored');
            resolve();
          };
        });
        control.revokeAccount(EMAIL);
        note(run, 'account revoked');
        run.timers.push(setTimeout(() => run.restore(), revoke.forMs));
      }, revoke.afterMs),
    );
  }
  for (const jump of run.scenario.outcome?.serviceClockJumps ?? []) {
    // A day or three without contact: the link drops, the service's clock (and with it its key
    // retention: keys forgotten after 24 h) moves on while the kiosk's does not, the link comes
    // back; the kiosk's next reply is a jump, until a second one confirms it. Whatever it had
    // under way finished before (the longest latency fault is 400 ms) or never arrived: a
    // resend decided on a reading of before is dropped with the link, never processed after.
    run.timers.push(
      setTimeout(() => {
        control.beginOutage();
        note(run, 'link down');
        run.timers.push(
          setTimeout(() => {
            control.advanceClock(jump.ms);
            control.endOutage();
            note(run, `link back, the service clock ${Math.round(jump.ms / 3_600_000)} h later`);
          }, SERVICE_JUMP_OUTAGE_MS),
        );
      }, jump.atMs),
    );
  }
  // A jump of the service's clock already outlives every token: no second move close to it.
  if (
    tokenExpiryAtMs !== undefined &&
    (run.scenario.outcome?.serviceClockJumps.length ?? 0) === 0
  ) {
    // The service's clock passes the token's lifetime: the kiosk's next call meets a 401.
    run.timers.push(
      setTimeout(() => {
        control.advanceClock(16 * 60_000);
        note(run, 'service clock advanced 16 min');
      }, tokenExpiryAtMs),
    );
  }
}

export function kioskInput(run: SeedRun): KioskInput {
  const outcome = run.scenario.outcome;
  return {
    slot: run.index,
    dataDir: run.dataDir,
    ...(outcome
      ? {
          outcome: {
            usagesVerified: outcome.usagesVerified,
            profileChanges: outcome.profileChanges,
            kioskClockSteps: outcome.kioskClockSteps,
            // The bodies differ between the two profiles only with a shop to leave out.
            ...(outcome.profileChanges.length > 0 ? { shopId: shopIds.paris } : {}),
          },
        }
      : {}),
    baseUrl: run.slot.sandbox.baseUrl,
    email: EMAIL,
    password: run.slot.password,
    plan: run.scenario.plan.slice(run.nextStep),
    seed: (run.seed * 31 + run.childRuns) >>> 0,
    concurrency: run.scenario.concurrency,
    responseTimeoutMs: 250,
    // Longer once faults are cleared: then only a loaded machine makes a drain slow.
    drainTimeoutMs: run.timeouts === 0 ? 8_000 : 20_000,
  };
}
