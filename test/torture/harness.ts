import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { createApiClient, type CommerceApiClient } from '../../electron/api/client.ts';
import { isCommerceApiError } from '../../electron/api/errors.ts';
import { createApiGateway, outboxClientRetry } from '../../electron/outbox/api-gateway.ts';
import type { DebitGateway } from '../../electron/outbox/gateway.ts';
import { DATABASE_FILE } from '../../electron/storage/database.ts';
import { demoGiftCards } from '../../sandbox/data/demo.ts';
import {
  startSandbox,
  type FaultSpec,
  type LedgerEntry,
  type RunningSandbox,
  type SandboxControl,
} from '../../sandbox/index.ts';
import type { DriverInput, KioskInput } from './driver.ts';

/**
 * The outbox torture test. For each seed: a sandbox of its own with random faults (on the
 * debit, sometimes on every route), a kiosk in a child process (driver.ts) that accepts a few
 * debits and drains them, the integration account revoked then restored at a random moment, the
 * service's clock jumped past the token lifetime. Seeds run in rounds: one child process runs
 * the kiosks of a round side by side (each with its own data directory and its own sandbox), is
 * SIGKILLed at random moments and restarted on the same directories until every kiosk is done;
 * sharing the process is what keeps hundreds of seeds within a few minutes, as most of a child's
 * cost is loading the client.
 *
 * At the end, with the faults cleared, each kiosk's rows are checked against its sandbox's ledger
 * of applied debits, and each settled row is replayed against the service (same key, same body):
 * the service must answer what the row says. See `checkInvariants`.
 *
 * A seed fixes its plan, faults, revocation and token-expiry times; the kill times are fixed by
 * the round's first seed. Nothing carries over from one round to the next (fresh sandboxes, data
 * directories and child processes). Real time still decides the interleaving, so a failing round
 * is re-run as it was (`npm run torture -- --seed <first> --runs <n> --batch <n>`), a few times if
 * needed; the report of a failing seed has its scenario, rows, the service's ledger and what each
 * child process said about it (TORTURE_TRACE=1 also prints every line of every child).
 */

const driverPath = fileURLToPath(new URL('./driver.ts', import.meta.url));
const EMAIL = 'kiosk-all@sandbox.test';
const UNKNOWN_CARD = 'gift_card_00000000-0000-4000-8000-00000000dead';
const TERMINAL = new Set(['applied', 'refused', 'failed', 'expired', 'cancelled']);
const REFUSAL_CODES = new Set(['INSUFFICIENT_BALANCE', 'GIFT_CARD_INACTIVE', 'GIFT_CARD_EXPIRED']);
const FAILURE_CODES = new Set(['RESOURCE_NOT_FOUND']);

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

export interface SeedReport {
  readonly seed: number;
  readonly ok: boolean;
  readonly problems: readonly string[];
  /** For a failing seed: its scenario, rows, the service's ledger and what each child did. */
  readonly detail?: string;
  readonly debits: number;
  readonly rows: number;
  readonly kills: number;
  readonly childRuns: number;
  readonly pauses: number;
  readonly faultsArmed: number;
  readonly faultsFired: number;
  readonly applied: number;
  readonly refused: number;
  readonly failed: number;
  readonly unacknowledgedRows: number;
  readonly revoked: boolean;
  readonly ms: number;
}

export interface TortureReport {
  readonly runs: number;
  readonly baseSeed: number;
  readonly failedSeeds: readonly number[];
  readonly totals: {
    readonly debits: number;
    readonly rows: number;
    readonly kills: number;
    readonly childRuns: number;
    readonly pauses: number;
    readonly faultsArmed: number;
    readonly faultsFired: number;
    readonly applied: number;
    readonly refused: number;
    readonly failed: number;
    readonly unacknowledgedRows: number;
    readonly revocations: number;
  };
  readonly reports: readonly SeedReport[];
  readonly ms: number;
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Rng {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!;
  }
  cents(minEur: number, maxEur: number): number {
    return this.int(Math.round(minEur * 100), Math.round(maxEur * 100)) / 100;
  }
}

// ---------------------------------------------------------------- the seed's scenario

interface Scenario {
  readonly plan: KioskInput['plan'];
  readonly faults: readonly FaultSpec[];
  readonly revoke: { readonly afterMs: number; readonly forMs: number } | undefined;
  readonly tokenExpiryAtMs: number | undefined;
  readonly concurrency: number;
}

export function scenarioFor(seed: number): Scenario {
  const rng = new Rng(seed);
  const steps = rng.int(2, 6);
  const plan: { card: string; amount: number; pauseMs: number }[] = [];
  for (let i = 0; i < steps; i++) {
    const roll = rng.next();
    // Mostly the active card (114.50) with amounts that may exhaust it over a run, the
    // low-balance card (4.50) so that refusals happen, and now and then a card the service
    // refuses outright or does not know.
    const [card, amount] =
      roll < 0.5
        ? [demoGiftCards.active, rng.cents(0.5, 45)]
        : roll < 0.82
          ? [demoGiftCards.lowBalance, rng.cents(0.5, 3)]
          : roll < 0.9
            ? [demoGiftCards.inactive, rng.cents(1, 10)]
            : roll < 0.95
              ? [demoGiftCards.expired, rng.cents(1, 10)]
              : [UNKNOWN_CARD, rng.cents(1, 10)];
    plan.push({ card, amount, pauseMs: rng.chance(0.4) ? rng.int(0, 40) : 0 });
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
  return { plan, faults, revoke, tokenExpiryAtMs, concurrency: rng.int(1, 3) };
}

// ---------------------------------------------------------------- children

interface DriverLine {
  readonly slot?: number;
  readonly loaded?: true;
  readonly ready?: true;
  readonly ack?: {
    readonly id: number;
    readonly key: string;
    readonly card: string;
    readonly amount: number;
  };
  readonly refusedLocally?: { readonly code: string };
  readonly done?: unknown;
  readonly paused?: unknown;
  readonly timeout?: { readonly result: string; readonly pending: number };
}

/** A driver process, spawned ahead of time so that its module loading overlaps other work. */
class Driver {
  readonly process: ChildProcess;
  readonly loaded: Promise<void>;
  /**
   * Resolves once the process has exited AND its stdout and stderr are closed ('close', not
   * 'exit': at 'exit' the last lines may still sit in the pipe, and a `done` read after the round
   * moved on would be lost).
   */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  #onLine: ((line: DriverLine, text: string) => void) | undefined;
  stderr = '';

  constructor(cacheDir: string) {
    this.process = spawn(process.execPath, [driverPath], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, NODE_COMPILE_CACHE: cacheDir, NODE_NO_WARNINGS: '1' },
    });
    this.exited = new Promise((resolve) =>
      this.process.once('close', (code, signal) => resolve({ code, signal })),
    );
    // A child that died before reading its input (killed standby) makes the write fail with
    // EPIPE: its exit says what happened, an unhandled stream error would crash the run.
    this.process.stdin!.on('error', () => {});
    this.process.once('error', (error) => {
      this.stderr += `spawn failed: ${error.message}\n`;
    });
    let markLoaded: () => void;
    let failLoaded: (error: Error) => void;
    this.loaded = new Promise((resolve, reject) => {
      markLoaded = resolve;
      failLoaded = reject;
    });
    // A standby killed at the end never loads: that is not a failure unless someone waits for it.
    this.loaded.catch(() => {});
    void this.exited.then(() =>
      failLoaded(new Error(`driver exited before loading: ${this.stderr}`)),
    );
    this.process.stderr!.on('data', (chunk: Buffer) => {
      if (this.stderr.length < 20_000) this.stderr += chunk.toString();
    });
    createInterface({ input: this.process.stdout! }).on('line', (text) => {
      let line: DriverLine;
      try {
        line = JSON.parse(text) as DriverLine;
      } catch {
        return;
      }
      if (process.env['TORTURE_TRACE']) process.stderr.write(`[pid ${this.process.pid}] ${text}\n`);
      if (line.loaded) markLoaded();
      else this.#onLine?.(line, text);
    });
  }

  get alive(): boolean {
    return this.process.exitCode === null && this.process.signalCode === null;
  }

  start(input: DriverInput, onLine: (line: DriverLine, text: string) => void): void {
    this.#onLine = onLine;
    this.process.stdin!.end(`${JSON.stringify(input)}\n`);
  }

  kill(): void {
    if (this.alive) this.process.kill('SIGKILL');
  }
}

/** One warm driver always waiting, so a restart after a kill does not wait for module loading. */
class DriverPool {
  readonly #cacheDir: string;
  /** Every driver not yet closed: none may outlive the run, whatever went wrong. */
  readonly #live = new Set<Driver>();
  #standby: Driver | undefined;

  constructor(cacheDir: string) {
    this.#cacheDir = cacheDir;
  }

  #spawn(): Driver {
    const driver = new Driver(this.#cacheDir);
    this.#live.add(driver);
    void driver.exited.then(() => this.#live.delete(driver));
    return driver;
  }

  async take(): Promise<Driver> {
    const driver = this.#standby ?? this.#spawn();
    this.#standby = this.#spawn();
    await driver.loaded;
    return driver;
  }

  async close(): Promise<void> {
    this.#standby = undefined;
    const live = [...this.#live];
    for (const driver of live) driver.kill();
    await Promise.all(live.map((driver) => driver.exited));
  }
}

// ---------------------------------------------------------------- a round of seeds

/**
 * One kiosk of a round: its own sandbox, so that its ledger and faults are its own. A sandbox
 * serves ONE seed and is closed after its checks, never reset for the next: a request a kiosk gave
 * up on (its response timeout, or its process SIGKILLed) may still be inside the sandbox, held by
 * a latency fault, and is processed when that ends. Reset for the next seed, the sandbox would
 * apply it there, with a key no row of that seed carries (seen: "the service applied key ...,
 * which no row carries" on the seed that came after one with a latency fault).
 */
interface Slot {
  readonly sandbox: RunningSandbox;
  readonly control: SandboxControl;
  readonly client: CommerceApiClient;
  readonly gateway: DebitGateway;
  readonly password: string;
  close(): Promise<void>;
}

async function startSlot(): Promise<Slot> {
  const sandbox = await startSandbox({ port: 0, seed: 1, control: true, products: 10 });
  const account = sandbox.accounts.find((entry) => entry.email === EMAIL)!;
  const client = createApiClient({
    baseUrl: sandbox.baseUrl,
    credentials: async () => ({ email: account.email, password: account.password }),
    retry: outboxClientRetry,
  });
  return {
    sandbox,
    control: sandbox.control!,
    client,
    gateway: createApiGateway(client),
    password: account.password,
    close: async () => {
      client.close();
      await sandbox.close();
    },
  };
}

/** The sandboxes of the next round start while the current one runs. */
class SlotPool {
  readonly #size: number;
  #next: Promise<Slot[]> | undefined;
  readonly #open = new Set<Slot>();

  constructor(size: number) {
    this.#size = size;
  }

  #start(): Promise<Slot[]> {
    const slots = Promise.all(
      Array.from({ length: this.#size }, async () => {
        const slot = await startSlot();
        this.#open.add(slot);
        return slot;
      }),
    );
    slots.catch(() => {}); // whoever takes them sees the failure
    return slots;
  }

  async take(): Promise<Slot[]> {
    const slots = this.#next ?? this.#start();
    this.#next = this.#start();
    return slots;
  }

  async release(slots: readonly Slot[]): Promise<void> {
    await Promise.all(
      slots.map(async (slot) => {
        this.#open.delete(slot);
        await slot.close();
      }),
    );
  }

  async close(): Promise<void> {
    const next = this.#next;
    this.#next = undefined;
    await next?.catch(() => {});
    await this.release([...this.#open]);
  }
}

/** Runs rounds one after the other: `batch` seeds at once, one child process for all. */
interface Lane {
  readonly slots: SlotPool;
  readonly pool: DriverPool;
}

interface SeedRun {
  readonly seed: number;
  readonly slot: Slot;
  readonly index: number;
  readonly scenario: Scenario;
  readonly dataDir: string;
  readonly armed: readonly { readonly spec: FaultSpec; readonly id: string }[];
  readonly problems: string[];
  readonly acked: Map<string, NonNullable<DriverLine['ack']>>;
  readonly timers: NodeJS.Timeout[];
  /** What happened to this kiosk, child by child, for the report of a failing seed. */
  readonly timeline: string[];
  nextStep: number;
  kills: number;
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

const TIMELINE_LIMIT = 300;

function note(run: SeedRun, text: string): void {
  if (run.timeline.length < TIMELINE_LIMIT)
    run.timeline.push(`${Math.round(performance.now() - run.started)} ms: ${text}`);
}

/** Kill moments of a round, after the child is ready: a property of the round's first seed. */
export function killsFor(firstSeed: number): number[] {
  const rng = new Rng((firstSeed ^ 0x9e3779b9) >>> 0);
  const count = rng.pick([0, 1, 1, 2, 2, 3]);
  return Array.from({ length: count }, () => rng.int(0, 250));
}

/**
 * Child runs of a round beyond which its seeds fail: something keeps the driver from finishing.
 * Each run ends with a kill, or with every kiosk done, paused (at most once a seed: one
 * revocation, and no restart before the restore) or out of time (a third time is a failure).
 */
function maxChildRuns(kills: number, seeds: number): number {
  return kills + seeds * 4 + 2;
}

function prepareSeed(seed: number, slot: Slot, index: number, workDir: string): SeedRun {
  const scenario = scenarioFor(seed);
  const armed = scenario.faults.map((spec) => ({ spec, id: slot.control.addFault(spec).id }));
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
function scheduleAccountEvents(run: SeedRun): void {
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
  if (tokenExpiryAtMs !== undefined) {
    // The service's clock passes the token's lifetime: the kiosk's next call meets a 401.
    run.timers.push(
      setTimeout(() => {
        control.advanceClock(16 * 60_000);
        note(run, 'service clock advanced 16 min');
      }, tokenExpiryAtMs),
    );
  }
}

function kioskInput(run: SeedRun): KioskInput {
  return {
    slot: run.index,
    dataDir: run.dataDir,
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
  const maxRuns = maxChildRuns(kills.length, seeds.length);
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
      if (killed) killIndex += 1;
      else if (exit.code !== 0) {
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
            if (killed) run.kills += 1;
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
    const check = await checkInvariants(run.slot, run.dataDir, run.acked, run.problems);
    rmSync(run.dataDir, { recursive: true, force: true });
    const ok = run.problems.length === 0;
    reports.push({
      seed: run.seed,
      ok,
      problems: run.problems,
      ...(ok ? {} : { detail: describeFailure(run, kills, check) }),
      debits: run.scenario.plan.length,
      rows: check.rows.length,
      kills: run.kills,
      childRuns: run.childRuns,
      pauses: run.pauses,
      faultsArmed: run.armed.length,
      faultsFired,
      applied: check.applied,
      refused: check.refused,
      failed: check.failed,
      unacknowledgedRows: check.unacknowledged,
      revoked: run.scenario.revoke !== undefined,
      ms: Math.round(performance.now() - run.started),
    });
  }
  return reports;
}

/** Everything needed to understand a failing seed without running it again. */
function describeFailure(run: SeedRun, kills: readonly number[], check: Check): string {
  const { scenario } = run;
  const lines = [
    `scenario: ${JSON.stringify({
      plan: scenario.plan,
      faults: scenario.faults,
      revoke: scenario.revoke ?? null,
      tokenExpiryAtMs: scenario.tokenExpiryAtMs ?? null,
      concurrency: scenario.concurrency,
      roundKillsMs: kills,
    })}`,
    `acknowledged (${run.acked.size}): ${JSON.stringify([...run.acked.values()])}`,
    `rows (${check.rows.length}):`,
    ...check.rows.map(
      (row) =>
        `  ${JSON.stringify({
          id: row.id,
          key: row.idempotency_key,
          card: row.gift_card_id,
          body: row.request_body,
          state: row.state,
          attempts: row.attempts,
          error: row.last_error_code,
          acknowledged: run.acked.has(row.idempotency_key),
        })}`,
    ),
    `service ledger (${check.ledger.length}):`,
    ...check.ledger.map(
      (entry) =>
        `  ${JSON.stringify({
          key: entry.idempotencyKey,
          card: entry.giftCardId,
          amount: entry.amount,
          reference: entry.reference,
          balanceAfter: entry.balanceAfter,
          at: entry.at,
        })}`,
    ),
    `timeline (ms since the seed started${run.timeline.length >= TIMELINE_LIMIT ? `, first ${TIMELINE_LIMIT} events` : ''}):`,
    ...run.timeline.map((line) => `  ${line}`),
  ];
  return lines.join('\n');
}

interface Row {
  id: number;
  idempotency_key: string;
  gift_card_id: string;
  request_body: string;
  state: string;
  attempts: number;
  last_error_code: string | null;
  reply: string | null;
  new_balance: number | null;
}

/**
 * The invariants, against the sandbox's ledger (one line per debit it actually applied):
 * 1. every acknowledged debit is in the database (the acknowledgement followed the commit);
 * 2. no idempotency key is applied twice;
 * 3. nothing is applied that no row carries (acknowledged, or committed and in flight when the
 *    child died), and what was applied is the row's card, amount and reference;
 * 4. every row is settled, and its state matches the ledger: applied exactly once, or
 *    refused/failed and never applied, with a code the service gives for that card;
 * 5. replaying each row's key and body gets the service's recorded answer: the same receipt for
 *    an applied row, the same refusal or failure otherwise, and the replays apply nothing.
 */
interface Check {
  readonly rows: readonly Row[];
  readonly ledger: readonly LedgerEntry[];
  readonly applied: number;
  readonly refused: number;
  readonly failed: number;
  readonly unacknowledged: number;
}

async function checkInvariants(
  lane: Slot,
  dataDir: string,
  acked: ReadonlyMap<string, NonNullable<DriverLine['ack']>>,
  problems: string[],
): Promise<Check> {
  const db = new DatabaseSync(join(dataDir, DATABASE_FILE), { readOnly: true });
  let rows: Row[];
  try {
    rows = db.prepare('SELECT * FROM outbox_debits ORDER BY id').all() as unknown as Row[];
  } finally {
    db.close();
  }
  const ledger = [...lane.control.ledger()];
  const byKey = new Map(rows.map((row) => [row.idempotency_key, row]));
  const ledgerCount = new Map<string, number>();
  for (const entry of ledger)
    ledgerCount.set(entry.idempotencyKey, (ledgerCount.get(entry.idempotencyKey) ?? 0) + 1);

  // Every acknowledged debit is in the database: the acknowledgement came after the commit.
  for (const [key, ack] of acked) {
    const row = byKey.get(key);
    if (!row) problems.push(`acknowledged debit ${key} (id ${ack.id}) is not in the database`);
    else if (row.id !== ack.id || row.gift_card_id !== ack.card)
      problems.push(`acknowledged debit ${key} does not match its row`);
  }
  // No key applied twice; nothing applied that no row of ours carries (acknowledged or in flight).
  for (const [key, count] of ledgerCount) {
    if (count > 1) problems.push(`key ${key} applied ${count} times`);
    if (!byKey.has(key)) problems.push(`the service applied key ${key}, which no row carries`);
  }
  for (const entry of ledger) {
    const row = byKey.get(entry.idempotencyKey);
    if (!row) continue;
    const body = JSON.parse(row.request_body) as { amount: number; reference: string };
    if (
      entry.giftCardId !== row.gift_card_id ||
      entry.amount !== body.amount ||
      entry.reference !== body.reference
    ) {
      problems.push(
        `ledger entry for ${entry.idempotencyKey} does not match the row's card, amount or reference`,
      );
    }
  }

  let applied = 0;
  let refused = 0;
  let failed = 0;
  for (const row of rows) {
    const inLedger = ledgerCount.get(row.idempotency_key) ?? 0;
    const label = `row ${row.id} (${row.state}, key ${row.idempotency_key})`;
    if (!TERMINAL.has(row.state)) {
      problems.push(`${label} is not settled at the end`);
      continue;
    }
    // The row's state matches the ledger, and a replay of the same key and body gets the same
    // answer from the service (it replays its first reply for a known key).
    let replay: { ok: true; receiptId: string } | { ok: false; kind: string; code: string };
    try {
      const receipt = await lane.gateway.debit(
        row.gift_card_id,
        row.idempotency_key,
        row.request_body,
      );
      replay = { ok: true, receiptId: receipt.id };
    } catch (error) {
      replay = isCommerceApiError(error)
        ? { ok: false, kind: error.kind, code: error.code }
        : { ok: false, kind: 'unknown', code: String(error) };
    }
    switch (row.state) {
      case 'applied': {
        applied += 1;
        if (inLedger !== 1)
          problems.push(`${label} is applied but the ledger has it ${inLedger} times`);
        const reply =
          row.reply === null
            ? undefined
            : (JSON.parse(row.reply) as {
                kind: string;
                receipt?: { id: string; balance: number };
              });
        if (reply?.kind === 'receipt') {
          const entry = ledger.find(
            (candidate) => candidate.idempotencyKey === row.idempotency_key,
          );
          if (entry && reply.receipt?.balance !== entry.balanceAfter)
            problems.push(`${label}: stored balance differs from the service's`);
          if (!replay.ok || replay.receiptId !== reply.receipt?.id)
            problems.push(
              `${label}: the service's replay is ${JSON.stringify(replay)}, not receipt ${reply.receipt?.id}`,
            );
        }
        break;
      }
      case 'refused':
        refused += 1;
        if (inLedger !== 0) problems.push(`${label} is refused but the service applied it`);
        if (!REFUSAL_CODES.has(row.last_error_code ?? ''))
          problems.push(`${label}: unexpected refusal code ${row.last_error_code}`);
        if (replay.ok || replay.kind !== 'Conflict' || replay.code !== row.last_error_code) {
          problems.push(
            `${label}: the service's replay is ${JSON.stringify(replay)}, not the same refusal`,
          );
        }
        break;
      case 'failed':
        failed += 1;
        if (inLedger !== 0) problems.push(`${label} is failed but the service applied it`);
        if (!FAILURE_CODES.has(row.last_error_code ?? ''))
          problems.push(`${label}: unexpected failure code ${row.last_error_code}`);
        if (replay.ok || replay.code !== row.last_error_code)
          problems.push(`${label}: the service's replay is ${JSON.stringify(replay)}`);
        break;
      default:
        problems.push(`${label}: no row should be ${row.state} in this test`);
    }
  }
  if (lane.control.ledger().length !== ledger.length)
    problems.push('a replay of a settled key applied a new debit');
  const unacknowledged = rows.filter((row) => !acked.has(row.idempotency_key)).length;
  return { rows, ledger, applied, refused, failed, unacknowledged };
}

// ---------------------------------------------------------------- the whole run

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
            roundReports = round.map((seed) => ({
              seed,
              ok: false,
              problems: [
                `the harness failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
              ],
              debits: 0,
              rows: 0,
              kills: 0,
              childRuns: 0,
              pauses: 0,
              faultsArmed: 0,
              faultsFired: 0,
              applied: 0,
              refused: 0,
              failed: 0,
              unacknowledgedRows: 0,
              revoked: false,
              ms: 0,
            }));
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

  const sum = (pick: (report: SeedReport) => number) =>
    reports.reduce((total, report) => total + pick(report), 0);
  const report: TortureReport = {
    runs: reports.length,
    baseSeed: options.baseSeed,
    failedSeeds: reports
      .filter((entry) => !entry.ok)
      .map((entry) => entry.seed)
      .sort((a, b) => a - b),
    totals: {
      debits: sum((r) => r.debits),
      rows: sum((r) => r.rows),
      kills: sum((r) => r.kills),
      childRuns: sum((r) => r.childRuns),
      pauses: sum((r) => r.pauses),
      faultsArmed: sum((r) => r.faultsArmed),
      faultsFired: sum((r) => r.faultsFired),
      applied: sum((r) => r.applied),
      refused: sum((r) => r.refused),
      failed: sum((r) => r.failed),
      unacknowledgedRows: sum((r) => r.unacknowledgedRows),
      revocations: reports.filter((r) => r.revoked).length,
    },
    reports,
    ms: Math.round(performance.now() - started),
  };
  const t = report.totals;
  options.log(
    `outbox torture: ${report.runs} runs (seeds ${options.baseSeed}..${options.baseSeed + options.runs - 1}, rounds of ${batch}), ` +
      `${t.debits} debits planned, ${t.rows} rows (${t.unacknowledgedRows} committed but never acknowledged), ` +
      `${t.applied} applied, ${t.refused} refused, ${t.failed} failed; ${t.kills} SIGKILLs, ${t.childRuns} child runs, ` +
      `${t.revocations} revocations (${t.pauses} pauses), ${t.faultsArmed} faults armed (${t.faultsFired} fired); ` +
      `${report.failedSeeds.length} failed seeds${report.failedSeeds.length ? ` [${report.failedSeeds.join(', ')}]` : ''}; ${(report.ms / 1000).toFixed(1)} s`,
  );
  return report;
}
