import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { WorkerInput, WorkerLine } from './worker.ts';

const workerPath = fileURLToPath(new URL('./worker.ts', import.meta.url));

/** A fleet worker (worker.ts) seen from the coordinator: spawn, lines in, input out, kill. */
export class WorkerProcess {
  readonly #process: ChildProcess;
  readonly loaded: Promise<void>;
  /** Resolves once the process exited and its output is closed. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr = '';

  constructor(onLine: (line: WorkerLine) => void, env: NodeJS.ProcessEnv) {
    this.#process = spawn(process.execPath, [workerPath], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...env, NODE_NO_WARNINGS: '1' },
    });
    this.exited = new Promise((resolve) =>
      this.#process.once('close', (code, signal) => resolve({ code, signal })),
    );
    this.#process.stdin!.on('error', () => {});
    this.#process.stderr!.on('data', (chunk: Buffer) => {
      if (this.stderr.length < 20_000) this.stderr += chunk.toString();
    });
    let markLoaded!: () => void;
    let failLoaded!: (error: Error) => void;
    this.loaded = new Promise((resolve, reject) => {
      markLoaded = resolve;
      failLoaded = reject;
    });
    this.loaded.catch(() => {});
    void this.exited.then(() =>
      failLoaded(new Error(`fleet worker exited before loading: ${this.stderr}`)),
    );
    createInterface({ input: this.#process.stdout! }).on('line', (text) => {
      let line: WorkerLine;
      try {
        line = JSON.parse(text) as WorkerLine;
      } catch {
        return;
      }
      if (line.loaded) markLoaded();
      else onLine(line);
    });
  }

  start(input: WorkerInput): void {
    this.#process.stdin!.write(`${JSON.stringify(input)}\n`);
  }

  finish(timeoutMs: number): void {
    this.#process.stdin!.end(`${JSON.stringify({ finish: true, timeoutMs })}\n`);
  }

  kill(): void {
    if (this.#process.exitCode === null && this.#process.signalCode === null)
      this.#process.kill('SIGKILL');
  }
}
