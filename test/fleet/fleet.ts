import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { demoGiftCards } from '../../sandbox/data/demo.ts';
import { startSandbox } from '../../sandbox/index.ts';
import type { AcceptedDebit, FinalDebit } from './fleet-kiosk.ts';
import { type FleetSettings, planFleet } from './plan.ts';
import { type FleetReport, fleetReport } from './report.ts';
import { WorkerProcess } from './worker-process.ts';
import type { WorkerLine } from './worker.ts';

/**
 * The fleet simulation (issue #18): N kiosks (`FleetKiosk`, the app's own parts, each with its
 * data directory, outbox, sender, mirror and probe) spread over a few child processes, against
 * one sandbox with a service-wide rate limit, through a network outage of all of them and its
 * end. The sandbox counts every request that meets its limiter per second; at the end each
 * kiosk's debits are checked against the service's ledger (applied exactly once, no duplicate).
 *
 * The kiosks' schedules are the app's (a probe, a change-feed loop, a sender with full-jitter
 * backoff honouring Retry-After); only their periods are shortened for runs shorter than
 * the app's own periods allow (`planFleet`). Whether the herd stays under the limit after the
 * outage is what the run shows.
 */

const account = 'kiosk-all@sandbox.test';
/** Small, so that 200 kiosks' full syncs are cheap: the run is about traffic, not volume. */
const PRODUCTS = 20;
/** A step of store activity every this many ms: the change feed always has something. */
const ACTIVITY_MS = 2_000;

export interface FleetRunOptions {
  readonly log?: (line: string) => void;
}

export async function runFleet(
  settings: FleetSettings,
  { log = () => {} }: FleetRunOptions = {},
): Promise<FleetReport> {
  const started = performance.now();
  const plan = planFleet(settings);
  const sandbox = await startSandbox({
    control: true,
    products: PRODUCTS,
    seed: settings.seed,
    activityIntervalMs: ACTIVITY_MS,
    serviceRateLimit: { capacity: plan.limitPerSecond, refillPerSecond: plan.limitPerSecond },
  });
  const control = sandbox.control!;
  const password = sandbox.accounts.find((entry) => entry.email === account)!.password;
  const dataRoot = mkdtempSync(join(tmpdir(), 'kiosk-fleet-'));
  const cacheDir = join(tmpdir(), 'commerce-kiosk-fleet-compile-cache');
  mkdirSync(cacheDir, { recursive: true });

  const accepted: AcceptedDebit[] = [];
  const finals: FinalDebit[] = [];
  const inSyncAt: number[] = [];
  const problems: string[] = [];
  let refusedLocally = 0;
  let done = 0;
  const onLine = (line: WorkerLine) => {
    if (line.accepted) accepted.push(line.accepted);
    if (line.refused) {
      refusedLocally += 1;
      problems.push(`kiosk ${line.k}: debit refused: ${line.refused.code}`);
    }
    if (line.inSync) inSyncAt.push(line.inSync.at);
    if (line.final) finals.push(...line.final.debits);
    if (line.failed) problems.push(`worker failed: ${line.failed}`);
    if (line.done) done += 1;
  };
  const workers = Array.from(
    { length: settings.workers },
    () => new WorkerProcess(onLine, { NODE_COMPILE_CACHE: cacheDir }),
  );
  const timers: NodeJS.Timeout[] = [];
  try {
    await Promise.all(workers.map((worker) => worker.loaded));
    const t0 = Date.now() + 200;
    workers.forEach((worker, w) =>
      worker.start({
        baseUrl: sandbox.baseUrl,
        email: account,
        password,
        card: demoGiftCards.active,
        dataRoot,
        t0,
        outageEndAt: t0 + plan.outage.toMs,
        probeMs: plan.probeMs,
        changeFeedMs: plan.changeFeedMs,
        kiosks: plan.kiosks.filter((kiosk) => kiosk.index % settings.workers === w),
      }),
    );
    const at = (ms: number, run: () => void) =>
      timers.push(setTimeout(run, Math.max(0, t0 + ms - Date.now())));
    at(plan.outage.fromMs, () => {
      control.beginOutage();
      log(`fleet: outage begins (${Math.round(plan.outage.fromMs / 1000)} s)`);
    });
    at(plan.outage.toMs, () => {
      control.endOutage();
      log(`fleet: outage ends (${Math.round(plan.outage.toMs / 1000)} s)`);
    });
    for (let minute = 1; minute * 60_000 < plan.durationMs; minute++)
      at(minute * 60_000, () =>
        log(
          `fleet: ${minute} min, ${accepted.length} debits accepted, ${control.ledger().length} applied`,
        ),
      );

    await delay(Math.max(0, t0 + plan.durationMs - Date.now()));
    // The run is over: kiosks get a while to come back in sync before they are told to finish.
    const settleBy = Date.now() + plan.settleTimeoutMs;
    while (inSyncAt.length < settings.kiosks && Date.now() < settleBy) await delay(250);
    for (const worker of workers) worker.finish(Math.max(5_000, settleBy - Date.now()));
    const deadline = Date.now() + plan.settleTimeoutMs + 30_000;
    while (done < workers.length && Date.now() < deadline) await delay(100);
    if (done < workers.length) {
      problems.push(`${workers.length - done} workers did not finish in time`);
      for (const worker of workers) if (worker.stderr) problems.push(worker.stderr);
    }

    const report = fleetReport(plan, {
      t0,
      accepted,
      refusedLocally,
      inSyncAt,
      finals,
      ledger: control.ledger(demoGiftCards.active),
      rate: control.requestRate(Math.floor(t0 / 1000)),
      wallMs: performance.now() - started,
    });
    if (problems.length > 0) log(`fleet: problems:\n  ${problems.join('\n  ')}`);
    return report;
  } finally {
    for (const timer of timers) clearTimeout(timer);
    for (const worker of workers) worker.kill();
    await Promise.all(workers.map((worker) => worker.exited));
    await sandbox.close();
    rmSync(dataRoot, { recursive: true, force: true });
  }
}
