import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { DriverInput } from './driver.ts';

/**
 * The kiosk child processes (driver.ts) seen from the harness: spawning one, reading its JSON
 * lines, killing it, and a pool that keeps one loaded in advance.
 */

const driverPath = fileURLToPath(new URL('./driver.ts', import.meta.url));

/** A debit the kiosk acknowledged: printed only after its row was committed. */
export interface Ack {
  readonly id: number;
  readonly key: string;
  readonly requestId: string;
  readonly card: string;
  readonly amount: number;
}

/** One line of a driver's stdout (the protocol is described in driver.ts). */
export interface DriverLine {
  readonly slot?: number;
  readonly loaded?: true;
  readonly ready?: true;
  readonly ack?: Ack;
  readonly lostReply?: { readonly requestId: string; readonly mode: 'retry' | 'crash' };
  readonly problem?: string;
  readonly refusedLocally?: { readonly code: string };
  readonly done?: unknown;
  readonly paused?: unknown;
  readonly timeout?: { readonly result: string; readonly pending: number };
  readonly profileChanged?: { readonly newKeys: number; readonly withheld: readonly number[] };
  readonly clockStepped?: { readonly ms: number };
}

/** A driver process, spawned ahead of time so that its module loading overlaps other work. */
export class Driver {
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
export class DriverPool {
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
