/**
 * The torture test's child process: one or more kiosks (one per seed of the round, each with its
 * own data directory and its own sandbox) that accept debits and drain them, killed with SIGKILL
 * at random moments by the harness. It is the real code path: a database file in a data
 * directory, the outbox, the sender with its lease, the real client over HTTP.
 *
 * It is spawned ahead of time (module loading is most of a start-up) and prints {"loaded":true};
 * then it reads one line of JSON on stdin ({"kiosks": [KioskInput...]}) and works. Output on
 * stdout, one JSON object a line, each with `slot` (the kiosk) and `t` (ms since start):
 *   {"ready":true}                                      every database is open
 *   {"slot","ack":{"id","key","requestId","card","amount"}}  only after the row is committed
 *   {"slot","lostReply":{"requestId","mode"}}           this enqueue's reply is lost (see below)
 *   {"slot","problem":"..."}                            the outbox broke a rule the driver checks
 *   {"slot","refusedLocally":{"code"}}                  an enqueue refused before any commit
 *   {"slot","done":{...}}                               the kiosk's outbox is empty, or every debit
 *                                                       left is held as "outcome unknown" ("held")
 *   {"slot","profileChanged":{"withheld","newKeys"}}    the bodies rebuilt with the other profile
 *   {"slot","clockStepped":{"ms"}}                      the kiosk's wall clock stepped
 *   {"slot","paused":{"code"}}                          credentials rejected: it stops
 *   {"slot","timeout":{...}}                            the drain ran out of time
 * The process exits 0 once every kiosk has finished one way or another.
 *
 * Every debit carries its step's request id. A step whose reply is lost (`lostReply`) is what a
 * screen meets: `retry` sends the same request again at once and must get the same row back;
 * `crash` kills this process with SIGKILL right after the first commit of that request, before
 * its ack, and the next process sends it again (the row is there: it goes on).
 */
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { createApiClient } from '../../electron/api/client.ts';
import { type Clock, systemClock } from '../../electron/foundation/clock.ts';
import {
  connectivityOf,
  createApiGateway,
  outboxClientRetry,
} from '../../electron/outbox/api-gateway.ts';
import { OutboxError } from '../../electron/outbox/errors.ts';
import type { OutboxDebit } from '../../electron/outbox/debit.ts';
import { Outbox } from '../../electron/outbox/outbox.ts';
import { OutboxSender } from '../../electron/outbox/sender.ts';
import { usageFingerprint } from '../../electron/outbox/usage-evidence.ts';
import { defaultProfile, IntegrationProfile } from '../../shared/profile/index.ts';
import { kioskSchema } from '../../electron/schema.ts';
import { openDatabase } from '../../electron/storage/database.ts';
import { seededRandom } from '../support/random.ts';
import type { ClockMove, LostReply } from './scenario.ts';

export interface KioskInput {
  readonly slot: number;
  readonly dataDir: string;
  readonly baseUrl: string;
  readonly email: string;
  readonly password: string;
  /** Debits to accept, in order, with a pause (ms) before each. */
  readonly plan: readonly {
    readonly card: string;
    readonly amount: number;
    readonly pauseMs: number;
    /** The logical debit: every enqueue of this step, in any process, carries it. */
    readonly requestId: string;
    readonly lostReply: LostReply;
  }[];
  readonly seed: number;
  readonly concurrency: number;
  readonly responseTimeoutMs: number;
  readonly drainTimeoutMs: number;
  /** The cases where an outcome may stay unknown (`OutcomeCase`), as this child plays them. */
  readonly outcome?: {
    readonly usagesVerified: boolean;
    /** Moments (ms after this child starts) the profile changes and the bodies are rebuilt. */
    readonly profileChanges: readonly number[];
    /** Steps of this child's wall clock (ms after it starts). */
    readonly kioskClockSteps: readonly ClockMove[];
    /** The kiosk's shop, put in the body by one profile and left out by the other. */
    readonly shopId?: string;
  };
}

/** The same service, the shop left out of the debit body: another body, another profile. */
const withoutShop = IntegrationProfile.parse({
  ...defaultProfile,
  name: 'torture: the shop left out of the body',
  giftCardDebit: { body: { ...defaultProfile.giftCardDebit.body, shopId: null } },
});

/** This child's wall clock, which the scenario steps; its monotonic clock never moves back. */
class SteppedClock implements Clock {
  offsetMs = 0;
  now(): number {
    return Date.now() + this.offsetMs;
  }
  monotonic(): number {
    return performance.now();
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return systemClock.sleep(ms, signal);
  }
}

export interface DriverInput {
  readonly kiosks: readonly KioskInput[];
}

const write = (value: object) =>
  process.stdout.write(`${JSON.stringify({ ...value, t: Math.round(performance.now()) })}\n`);

async function readInput(): Promise<DriverInput> {
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    lines.close();
    return JSON.parse(line) as DriverInput;
  }
  throw new Error('no input on stdin');
}

function openKiosk(input: KioskInput) {
  const db = openDatabase({ dataDir: input.dataDir, schema: kioskSchema });
  const clock = new SteppedClock();
  const client = createApiClient({
    baseUrl: input.baseUrl,
    credentials: async () => ({ email: input.email, password: input.password }),
    retry: outboxClientRetry,
    timeouts: { connectMs: 500, responseMs: input.responseTimeoutMs },
    random: seededRandom(input.seed ^ 0x5eed),
    clock,
  });
  const outbox = new Outbox({
    db,
    clock,
    connectivity: connectivityOf(client),
    ...(input.outcome?.shopId === undefined ? {} : { shopId: input.outcome.shopId }),
    // Generous limits: the torture is about delivery; the limits have their own tests.
    limits: {
      maxOfflineDebitAmount: 10_000,
      maxPendingAmount: 100_000,
      maxPendingAmountPerCard: 100_000,
      maxPendingCount: 10_000,
    },
  });
  if (input.outcome?.usagesVerified) {
    // What `kioskctl contract check` records on a service that fills the usages: "absent" from
    // them is then evidence. Both profiles read the usages alike: one verdict for both.
    db.transaction(() =>
      outbox.store.recordUsageCheck({
        fingerprint: usageFingerprint(defaultProfile),
        profileName: defaultProfile.name,
        verified: true,
        detail: 'torture: the contract check found the usages',
        checkedAt: Date.now(),
      }),
    );
  }
  const sender = new OutboxSender({
    outbox,
    gateway: createApiGateway(client, () => outbox.profile),
    random: seededRandom(input.seed),
    concurrency: input.concurrency,
    // Short, so that a holder the harness killed is replaced quickly even without the pid check.
    leaseTtlMs: 2_000,
    idlePollMs: 20,
    inFlightGraceMs: 1_000,
    unknownRecheckMs: 100,
    retry: {
      backoff: { baseMs: 5, capMs: 80 },
      retryAfter: { capMs: 150, jitterMs: 20 },
      budget: { capacity: 50, refillPerSecond: 200 },
    },
  });
  return { input, db, client, outbox, sender, clock };
}

/** The scenario's profile changes and clock steps, timed from this child's start. */
function scheduleOutcomeEvents(kiosk: ReturnType<typeof openKiosk>): NodeJS.Timeout[] {
  const { input, outbox, clock } = kiosk;
  const slot = input.slot;
  const timers: NodeJS.Timeout[] = [];
  let other = true;
  for (const atMs of input.outcome?.profileChanges ?? []) {
    timers.push(
      setTimeout(() => {
        // An administrator saved another profile and resumed: every pending body is rebuilt.
        outbox.useProfile(other ? withoutShop : defaultProfile);
        other = !other;
        try {
          const { newKeys, withheld } = outbox.rebuildBodies();
          write({ slot, profileChanged: { newKeys, withheld } });
        } catch (error) {
          write({ slot, problem: `rebuilding the bodies failed: ${String(error)}` });
        }
      }, atMs),
    );
  }
  for (const step of input.outcome?.kioskClockSteps ?? []) {
    timers.push(
      setTimeout(() => {
        clock.offsetMs += step.ms;
        write({ slot, clockStepped: { ms: step.ms } });
      }, step.atMs),
    );
  }
  return timers;
}

async function runKiosk(kiosk: ReturnType<typeof openKiosk>): Promise<void> {
  const { input, outbox, sender } = kiosk;
  const slot = input.slot;
  const timers = scheduleOutcomeEvents(kiosk);
  sender.start();
  try {
    for (const step of input.plan) {
      if (step.pauseMs > 0) await systemClock.sleep(step.pauseMs);
      try {
        const request = { requestId: step.requestId, giftCardId: step.card, amount: step.amount };
        const firstTime = outbox.findByRequestId(step.requestId) === undefined;
        let { debit } = outbox.enqueue(request);
        if (step.lostReply === 'crash' && firstTime) {
          write({ slot, lostReply: { requestId: step.requestId, mode: 'crash' } });
          process.kill(process.pid, 'SIGKILL');
        }
        if (step.lostReply === 'retry') {
          write({ slot, lostReply: { requestId: step.requestId, mode: 'retry' } });
          debit = retryLostReply(outbox, request, debit.id, (problem) => write({ slot, problem }));
        }
        write({
          slot,
          ack: {
            id: debit.id,
            key: debit.idempotencyKey,
            requestId: debit.requestId,
            card: debit.giftCardId,
            amount: debit.amount,
          },
        });
      } catch (error) {
        if (!(error instanceof OutboxError)) throw error;
        write({ slot, refusedLocally: { code: error.code } });
      }
    }
    const report = await sender.drain({ untilEmpty: true, timeoutMs: input.drainTimeoutMs });
    if (report.result === 'paused')
      write({ slot, paused: { code: sender.status.paused?.code ?? null } });
    else if (report.result === 'empty' || report.result === 'held')
      write({
        slot,
        done: {
          applied: report.applied,
          refused: report.refused,
          failed: report.failed,
          held: report.summary.outcomeUnknown ?? 0,
        },
      });
    else write({ slot, timeout: { result: report.result, pending: report.summary.openCount } });
  } finally {
    for (const timer of timers) clearTimeout(timer);
    await sender.stop();
    kiosk.client.close();
    kiosk.db.close();
  }
}

/**
 * The screen's side of a lost reply: the request id is refused for another amount, and the same
 * request sent again gets the row already stored.
 */
function retryLostReply(
  outbox: Outbox,
  request: { requestId: string; giftCardId: string; amount: number },
  id: number,
  problem: (text: string) => void,
): OutboxDebit {
  try {
    outbox.enqueue({ ...request, amount: request.amount + 0.01 });
    problem(`request id ${request.requestId} was accepted again for another amount`);
  } catch (error) {
    if (!(error instanceof OutboxError) || error.code !== 'REQUEST_ID_REUSED') throw error;
  }
  const again = outbox.enqueue(request);
  if (!again.replayed || again.debit.id !== id) {
    problem(
      `request ${request.requestId} sent again got debit ${again.debit.id} (replayed: ${again.replayed}), not ${id}`,
    );
  }
  return again.debit;
}

async function main(): Promise<void> {
  write({ loaded: true });
  const input = await readInput();
  const kiosks = input.kiosks.map(openKiosk);
  write({ ready: true });
  await Promise.all(kiosks.map(runKiosk));
}

main().then(
  () => {
    process.exitCode = 0;
  },
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
