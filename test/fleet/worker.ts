/**
 * A child process of the fleet: several kiosks (`FleetKiosk`), each with its own data directory,
 * sharing one event loop, as the torture test's drivers do (module loading is most of a Node
 * process's cost; 200 processes would not fit a 2-core machine, 200 kiosks in a few do).
 *
 * It prints {"loaded":true}, then reads one line of JSON (`WorkerInput`) and runs the plan:
 * each kiosk starts at its time and accepts its debits at theirs. Later a second line
 * {"finish":true} asks it to send what is left, report and exit. Output, one JSON object a line
 * (`WorkerLine`): `accepted` once a debit is committed, `refused` if the outbox refused one,
 * `inSync` the first time after the outage that a kiosk has nothing waiting and a mirror at
 * least as recent as the outage's end, `final` with every debit's key and state, then `done`.
 */
import { mkdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { FleetKiosk, type AcceptedDebit, type FinalDebit } from './fleet-kiosk.ts';
import type { KioskPlan } from './plan.ts';

export interface WorkerInput {
  readonly baseUrl: string;
  readonly email: string;
  readonly password: string;
  readonly card: string;
  readonly dataRoot: string;
  /** Epoch ms of the run's start: every plan time counts from it. */
  readonly t0: number;
  readonly outageEndAt: number;
  readonly probeMs: number;
  readonly changeFeedMs: number;
  readonly kiosks: readonly KioskPlan[];
}

export interface WorkerLine {
  readonly loaded?: true;
  readonly k?: number;
  readonly accepted?: AcceptedDebit & { readonly at: number };
  readonly refused?: { readonly code: string; readonly message: string };
  readonly inSync?: { readonly at: number };
  readonly final?: { readonly debits: readonly FinalDebit[]; readonly drain: string };
  readonly done?: true;
  readonly failed?: string;
}

const write = (line: WorkerLine) => process.stdout.write(`${JSON.stringify(line)}\n`);

async function main(): Promise<void> {
  write({ loaded: true });
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.done) throw new Error('no input on stdin');
  const input = JSON.parse(first.value) as WorkerInput;
  const timers: NodeJS.Timeout[] = [];
  const running = new Map<number, FleetKiosk>();
  const at = (epochMs: number, run: () => void) =>
    timers.push(setTimeout(run, Math.max(0, epochMs - Date.now())));

  for (const plan of input.kiosks) {
    at(input.t0 + plan.startAtMs, () => {
      const dataDir = join(input.dataRoot, `kiosk-${plan.index}`);
      mkdirSync(dataDir, { recursive: true });
      const kiosk = new FleetKiosk({
        dataDir,
        baseUrl: input.baseUrl,
        email: input.email,
        password: input.password,
        probeMs: input.probeMs,
        changeFeedMs: input.changeFeedMs,
        seed: plan.seed,
      });
      running.set(plan.index, kiosk);
      let inSync = false;
      const check = () => {
        if (inSync || Date.now() < input.outageEndAt || !kiosk.inSyncSince(input.outageEndAt))
          return;
        inSync = true;
        write({ k: plan.index, inSync: { at: Date.now() } });
      };
      kiosk.onChange(check);
      kiosk.start();
      for (const step of plan.debits) {
        at(input.t0 + step.atMs, () => {
          try {
            const accepted = kiosk.debit(input.card, step.amount);
            write({ k: plan.index, accepted: { ...accepted, at: Date.now() } });
          } catch (error) {
            const { code = 'UNEXPECTED', message = String(error) } = error as {
              code?: string;
              message?: string;
            };
            write({ k: plan.index, refused: { code, message } });
          }
          check();
        });
      }
    });
  }

  // The second line: send what is left, report, stop.
  const second = await lines.next();
  const finish = second.done ? {} : (JSON.parse(second.value) as { timeoutMs?: number });
  for (const timer of timers) clearTimeout(timer);
  await Promise.all(
    [...running].map(async ([k, kiosk]) => {
      const drain = await kiosk.drain(finish.timeoutMs ?? 60_000);
      write({ k, final: { debits: kiosk.debits(), drain } });
      await kiosk.close();
    }),
  );
  write({ done: true });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    write({ failed: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.exit(1);
  },
);
