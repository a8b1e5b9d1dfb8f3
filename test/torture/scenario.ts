import { demoGiftCards } from '../../sandbox/data/demo.ts';
import type { FaultSpec } from '../../sandbox/index.ts';
import { Random } from '../support/random.ts';
import type { KioskInput } from './driver.ts';

/**
 * What a seed does, drawn from the seed alone: the debits its kiosk accepts (each a logical debit
 * with its request id, some with their reply lost), the faults armed on its sandbox, when its
 * account is revoked and for how long, when the service's clock jumps past the token lifetime.
 * The kill moments belong to a round and are drawn from its first seed. Replaying a seed replays
 * its scenario: these draws must not change for a given seed.
 */

export const UNKNOWN_CARD = 'gift_card_00000000-0000-4000-8000-00000000dead';

/**
 * How the reply to a step's enqueue is lost, as staff would meet it:
 * - `retry`: the reply does not reach the screen; the same request is sent again at once (after
 *   a probe that the request id cannot be reused for another amount);
 * - `crash`: the kiosk process dies right after the commit, before anyone is told; the step is
 *   sent again, same request id, by the next process.
 */
export type LostReply = 'retry' | 'crash' | null;

export interface Scenario {
  readonly plan: KioskInput['plan'];
  readonly faults: readonly FaultSpec[];
  readonly revoke: { readonly afterMs: number; readonly forMs: number } | undefined;
  readonly tokenExpiryAtMs: number | undefined;
  readonly concurrency: number;
  /** No evidence is not proof: the cases where an outcome may stay unknown, or none. */
  readonly outcome: OutcomeCase | undefined;
}

/** A clock moved at a moment: ms after the kiosk is first ready, by `ms`. */
export interface ClockMove {
  readonly atMs: number;
  readonly ms: number;
}

/**
 * What may leave a debit's outcome unprovable, and the kiosk must then hold for a person rather
 * than guess: the service's usage lists always empty (a sandbox option), or filled but never
 * verified by a contract check; the integration profile changed between attempts (the bodies
 * rebuilt, as `kioskctl outbox resume` does); a day or three without contact, the service's clock
 * 25 h or 73 h further when it answers again (its keys forgotten after 24 h), landing between an
 * attempt and the next; the kiosk's wall clock stepped between sending and recording.
 */
export interface OutcomeCase {
  readonly emptyUsages: boolean;
  /** The contract check verified the usages (only ever where they are filled). */
  readonly usagesVerified: boolean;
  /** Moments (ms after ready) the profile changes, each time the other one. */
  readonly profileChanges: readonly number[];
  readonly serviceClockJumps: readonly ClockMove[];
  readonly kioskClockSteps: readonly ClockMove[];
}

const HOUR = 3_600_000;

/** Drawn from a stream of its own: the other draws of a seed stay what they were. */
function outcomeCaseFor(seed: number): OutcomeCase | undefined {
  const rng = new Random(seed).fork('outcome');
  if (!rng.chance(0.4)) return undefined;
  const usages = rng.pick(['empty', 'unverified', 'verified'] as const);
  const moments = (count: number) =>
    Array.from({ length: count }, () => rng.int(0, 300)).sort((a, b) => a - b);
  const profileChanges = moments(rng.pick([0, 1, 2, 2]));
  // Each jump is a day or three without contact (`SERVICE_JUMP_OUTAGE_MS`, seed-run.ts), the
  // second after the first is over: a second one between the kiosk's renewal of its token and
  // its use would be a service refusing fresh credentials twice in a row.
  const jumps = rng.pick([0, 1, 2]);
  const firstJumpAt = rng.int(0, 300);
  const serviceClockJumps = [
    ...(jumps >= 1 ? [{ atMs: firstJumpAt, ms: rng.pick([25 * HOUR, 73 * HOUR]) }] : []),
    ...(jumps >= 2 ? [{ atMs: firstJumpAt + 1_000 + rng.int(0, 300), ms: 73 * HOUR }] : []),
  ];
  const kioskClockSteps = moments(rng.pick([0, 0, 1, 2])).map((atMs) => ({
    atMs,
    ms: rng.pick([-60 * 60_000, 60 * 60_000, 73 * HOUR, -2 * 24 * HOUR]),
  }));
  return {
    emptyUsages: usages === 'empty',
    usagesVerified: usages === 'verified',
    profileChanges,
    serviceClockJumps,
    kioskClockSteps,
  };
}

/** An amount in euros with cents, both bounds included. */
function cents(random: Random, minEur: number, maxEur: number): number {
  return random.int(Math.round(minEur * 100), Math.round(maxEur * 100)) / 100;
}

export function scenarioFor(seed: number): Scenario {
  const rng = new Random(seed);
  const steps = rng.int(2, 6);
  const plan: {
    card: string;
    amount: number;
    pauseMs: number;
    requestId: string;
    lostReply: LostReply;
  }[] = [];
  // A stream of its own, so the draws below stay what they were before request ids existed.
  const requests = new Random(seed).fork('request ids');
  for (let i = 0; i < steps; i++) {
    const roll = rng.next();
    // Mostly the active card (114.50) with amounts that may exhaust it over a run, the
    // low-balance card (4.50) so that refusals happen, and now and then a card the service
    // refuses outright or does not know.
    const [card, amount] =
      roll < 0.5
        ? [demoGiftCards.active, cents(rng, 0.5, 45)]
        : roll < 0.82
          ? [demoGiftCards.lowBalance, cents(rng, 0.5, 3)]
          : roll < 0.9
            ? [demoGiftCards.inactive, cents(rng, 1, 10)]
            : roll < 0.95
              ? [demoGiftCards.expired, cents(rng, 1, 10)]
              : [UNKNOWN_CARD, cents(rng, 1, 10)];
    const pauseMs = rng.chance(0.4) ? rng.int(0, 40) : 0;
    const lost = requests.next();
    const lostReply: LostReply = lost < 0.2 ? 'retry' : lost < 0.3 ? 'crash' : null;
    plan.push({ card, amount, pauseMs, requestId: requests.uuid(), lostReply });
  }

  const faults: FaultSpec[] = [];
  const faultCount = rng.int(0, 3);
  for (let i = 0; i < faultCount; i++) {
    const kind = rng.pick([
      'internal-error',
      'unavailable',
      'reset',
      'commit-then-reset',
      'rate-limit',
      'latency',
    ] as const);
    // Most faults hit the debit; some hit every operation (POST /auth and the card read too).
    const route = rng.chance(0.8) ? { route: 'debitGiftCard' } : {};
    const spec: FaultSpec = {
      kind,
      ...route,
      count: rng.int(1, 4),
      probability: rng.pick([0.3, 0.5, 1]),
      ...(kind === 'latency' ? { latencyMs: rng.int(20, 400) } : {}),
      ...(kind === 'rate-limit' || (kind === 'unavailable' && rng.chance(0.5))
        ? { retryAfterSeconds: rng.int(0, 1) }
        : {}),
    };
    faults.push(spec);
  }

  // Early enough to land while the kiosk still has work: a kiosk is busy for a few 100 ms.
  const revoke = rng.chance(0.2) ? { afterMs: rng.int(0, 60), forMs: rng.int(50, 250) } : undefined;
  const tokenExpiryAtMs = rng.chance(0.15) ? rng.int(0, 150) : undefined;
  return {
    plan,
    faults,
    revoke,
    tokenExpiryAtMs,
    concurrency: rng.int(1, 3),
    outcome: outcomeCaseFor(seed),
  };
}

/** Kill moments of a round, after the child is ready: a property of the round's first seed. */
export function killsFor(firstSeed: number): number[] {
  const rng = new Random((firstSeed ^ 0x9e3779b9) >>> 0);
  const count = rng.pick([0, 1, 1, 2, 2, 3]);
  return Array.from({ length: count }, () => rng.int(0, 250));
}
