import { setTimeout as sleep } from 'node:timers/promises';
import type { PrintJobState, PrintProblem } from '../../shared/ipc/printing.ts';
import { TypedEmitter } from '../foundation/index.ts';
import {
  isPrintError,
  PrintError,
  terminalJobStates,
  type JobStatus,
  type PrintBackend,
} from './backend.ts';
import { choosePrinter } from './choose-backend.ts';
import { fetchVerifiedDocument, type DocumentSource } from './document-source.ts';
import { newJobId, type DocumentSpool, type SpooledFile } from './document.ts';
import { problemOf, type PrintJobSnapshot, type PrintRequest } from './print-job.ts';

const FINISHED: ReadonlySet<PrintJobState> = new Set(['completed', 'failed', 'cancelled']);

export interface PrintQueueEvents extends Record<string, unknown> {
  /** Every change of any job: state, problem, printer, backend id. */
  'job-changed': PrintJobSnapshot;
  /** Once per job, with its final state. */
  'job-finished': PrintJobSnapshot;
}

export interface PrintQueueOptions {
  readonly backend: PrintBackend;
  readonly source: DocumentSource;
  readonly spool: DocumentSpool;
  /** The configured printer; the system default when absent. */
  readonly printer?: string | undefined;
  readonly media?: string | undefined;
  /** Finished jobs kept for the UI and the CLI. */
  readonly historySize?: number;
  /** Request ids remembered, so a repeated press returns its job instead of printing again. */
  readonly requestMemory?: number;
  readonly maxDocumentBytes?: number;
  /** Attempts at sending when the print service is briefly unreachable (1 = no retry). */
  readonly maxAttempts?: number;
  /** Wait before the first retry; doubled for each further one. */
  readonly retryDelayMs?: number;
  readonly pollIntervalMs?: number;
  /** Consecutive failed status checks tolerated while a job prints. */
  readonly maxStatusErrors?: number;
  /** A job held up (printer stopped, out of paper) this long is cancelled and reported failed. */
  readonly stallTimeoutMs?: number;
  /** Upper bound for a job from sending to its end. */
  readonly jobTimeoutMs?: number;
  readonly now?: () => Date;
}

interface Job {
  snapshot: PrintJobSnapshot;
  readonly request: PrintRequest;
  readonly abort: AbortController;
  cancelRequested: boolean;
  /** Resolves the poll loop's wait early (after a cancel). */
  wake: (() => void) | undefined;
  readonly done: Promise<PrintJobSnapshot>;
  resolveDone: (snapshot: PrintJobSnapshot) => void;
}

class JobCancelled extends Error {}

type Settings = Required<Omit<PrintQueueOptions, 'printer' | 'media' | 'maxDocumentBytes'>> &
  Pick<PrintQueueOptions, 'printer' | 'media' | 'maxDocumentBytes'>;

/**
 * The main process's single print queue. Jobs for one printer go out one at a time, in order;
 * different printers work in parallel. Nothing about a job is persisted: a kiosk restart simply
 * forgets unfinished jobs, and staff print again.
 */
export class PrintQueue {
  readonly events = new TypedEmitter<PrintQueueEvents>();
  readonly #options: Settings;
  readonly #jobs = new Map<string, Job>();
  readonly #history: PrintJobSnapshot[] = [];
  /**
   * Job id by request id, oldest first. Kept longer than the history: a press answered twice
   * must never print twice, even once its job has left the list staff see.
   */
  readonly #requests = new Map<string, string>();
  /** Finished jobs still named by a request id, beyond the history. */
  readonly #finishedByRequest = new Map<string, PrintJobSnapshot>();
  /** The tail of each printer's chain of jobs. */
  readonly #lanes = new Map<string, Promise<void>>();
  /** The printer choices, one after another: jobs join their printer's lane in the order sent. */
  #choices: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(options: PrintQueueOptions) {
    this.#options = {
      backend: options.backend,
      source: options.source,
      spool: options.spool,
      printer: options.printer,
      media: options.media,
      maxDocumentBytes: options.maxDocumentBytes,
      historySize: options.historySize ?? 20,
      requestMemory: options.requestMemory ?? 500,
      maxAttempts: options.maxAttempts ?? 3,
      retryDelayMs: options.retryDelayMs ?? 1_000,
      pollIntervalMs: options.pollIntervalMs ?? 500,
      maxStatusErrors: options.maxStatusErrors ?? 5,
      stallTimeoutMs: options.stallTimeoutMs ?? 60_000,
      jobTimeoutMs: options.jobTimeoutMs ?? 5 * 60_000,
      now: options.now ?? (() => new Date()),
    };
  }

  /**
   * Accepts a job and returns at once with its first snapshot (queued). Follow it through
   * `events` or `waitFor`; a job that cannot be printed ends `failed` with a reason, it never
   * makes this method throw.
   */
  enqueue(request: PrintRequest): PrintJobSnapshot {
    if (this.#closed) throw new PrintError('backend_unavailable', 'The print queue is closed.');
    const existing = this.#byRequest(request);
    if (existing) return existing;
    const at = this.#options.now().toISOString();
    let resolveDone: (snapshot: PrintJobSnapshot) => void = () => undefined;
    const done = new Promise<PrintJobSnapshot>((resolve) => (resolveDone = resolve));
    const job: Job = {
      snapshot: {
        id: newJobId(),
        requestId: request.requestId,
        kind: request.kind,
        reference: request.reference,
        documentNumber: undefined,
        printer: undefined,
        copies: request.copies ?? 1,
        state: 'queued',
        problem: undefined,
        backendJobId: undefined,
        retries: 0,
        createdAt: at,
        updatedAt: at,
      },
      request,
      abort: new AbortController(),
      cancelRequested: false,
      wake: undefined,
      done,
      resolveDone,
    };
    this.#jobs.set(job.snapshot.id, job);
    if (request.requestId !== undefined) this.#remember(request.requestId, job.snapshot.id);
    this.events.emit('job-changed', job.snapshot);
    void this.#schedule(job);
    return job.snapshot;
  }

  /**
   * The job an earlier call with this request id made, whatever its state: a second tap while it
   * prints, or after it failed, is still the same press. The same id for another document is a
   * renderer bug, refused rather than silently printing the first document again.
   */
  #byRequest(request: PrintRequest): PrintJobSnapshot | undefined {
    if (request.requestId === undefined) return undefined;
    const jobId = this.#requests.get(request.requestId);
    if (jobId === undefined) return undefined;
    const snapshot = this.get(jobId) ?? this.#finishedByRequest.get(request.requestId);
    if (snapshot === undefined) return undefined;
    if (snapshot.kind !== request.kind || snapshot.reference !== request.reference) {
      throw new PrintError(
        'invalid_options',
        'This print request id was already used for another document.',
      );
    }
    return snapshot;
  }

  #remember(requestId: string, jobId: string): void {
    this.#requests.set(requestId, jobId);
    while (this.#requests.size > this.#options.requestMemory) {
      const oldest = this.#requests.keys().next().value;
      if (oldest === undefined) break;
      this.#requests.delete(oldest);
      this.#finishedByRequest.delete(oldest);
    }
  }

  /**
   * Picks the printer, then waits for that printer's previous jobs before running this one. The
   * choice asks the print service, so two jobs sent together could have their answers in either
   * order; choosing in turn keeps the invoice staff printed first coming out first.
   */
  async #schedule(job: Job): Promise<void> {
    let printer: string;
    try {
      const choice = this.#choices.then(() => {
        // Cancelled while the jobs ahead were choosing: nothing to ask the print service.
        if (job.cancelRequested) throw new JobCancelled();
        return this.#withRetry(job, () =>
          choosePrinter(this.#options.backend, job.request.printer ?? this.#options.printer),
        );
      });
      this.#choices = choice.catch(() => undefined);
      printer = await choice;
    } catch (error) {
      if (job.cancelRequested) this.#finish(job, 'cancelled');
      else this.#finish(job, 'failed', problemOf(error));
      return;
    }
    if (job.cancelRequested) {
      this.#finish(job, 'cancelled');
      return;
    }
    this.#update(job, { printer, problem: undefined });
    const previous = this.#lanes.get(printer) ?? Promise.resolve();
    const current = previous.then(() => this.#run(job));
    this.#lanes.set(printer, current);
    await current;
    if (this.#lanes.get(printer) === current) this.#lanes.delete(printer);
  }

  /** Resolves with the job's final snapshot. */
  waitFor(jobId: string): Promise<PrintJobSnapshot> {
    const job = this.#jobs.get(jobId);
    if (job) return job.done;
    const finished = this.#history.find((snapshot) => snapshot.id === jobId);
    if (finished) return Promise.resolve(finished);
    return Promise.reject(new PrintError('job_unknown', `There is no print job ${jobId}.`));
  }

  get(jobId: string): PrintJobSnapshot | undefined {
    return (
      this.#jobs.get(jobId)?.snapshot ?? this.#history.find((snapshot) => snapshot.id === jobId)
    );
  }

  /** Unfinished jobs first (oldest first), then the history (newest first). */
  list(): PrintJobSnapshot[] {
    return [...[...this.#jobs.values()].map((job) => job.snapshot), ...this.history()];
  }

  history(): PrintJobSnapshot[] {
    return [...this.#history].reverse();
  }

  /**
   * Cancels a job wherever it is: a queued job never starts, a job being sent stops before or
   * right after it reaches the printer, a printing job is cancelled at the print service. A job
   * that already finished is returned unchanged.
   */
  async cancel(jobId: string): Promise<PrintJobSnapshot> {
    const job = this.#jobs.get(jobId);
    if (!job) {
      const finished = this.#history.find((snapshot) => snapshot.id === jobId);
      if (finished) return finished;
      throw new PrintError('job_unknown', `There is no print job ${jobId}.`);
    }
    job.cancelRequested = true;
    job.abort.abort();
    if (job.snapshot.state === 'queued') {
      // Not started: it ends now rather than when the jobs ahead of it on its printer are done.
      this.#finish(job, 'cancelled');
      return job.snapshot;
    }
    const backendJobId = job.snapshot.backendJobId;
    if (job.snapshot.state === 'printing' && backendJobId !== undefined) {
      // The poll loop sees the backend's verdict (cancelled, or completed if it was too late).
      await this.#options.backend.cancel(backendJobId);
    }
    job.wake?.();
    return job.done;
  }

  /** Cancels what is unfinished and waits for it to settle; used at shutdown. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled([...this.#jobs.keys()].map((id) => this.cancel(id)));
    await Promise.allSettled([...this.#lanes.values()]);
  }

  async #run(job: Job): Promise<void> {
    if (job.cancelRequested) {
      this.#finish(job, 'cancelled');
      return;
    }
    let file: SpooledFile | undefined;
    // The job ends only once its spool file is gone: whoever waits on it finds nothing left over.
    let outcome: ['completed' | 'failed' | 'cancelled', PrintProblem?];
    try {
      this.#update(job, { state: 'sending', problem: undefined });
      const document = await fetchVerifiedDocument(
        this.#options.source,
        job.request.kind,
        job.request.reference,
        {
          signal: job.abort.signal,
          make: job.request.make,
          ...(this.#options.maxDocumentBytes === undefined
            ? {}
            : { maxBytes: this.#options.maxDocumentBytes }),
        },
      ).catch((error: unknown) => {
        if (job.cancelRequested) throw new JobCancelled();
        throw error;
      });
      this.#update(job, { documentNumber: document.number });
      if (job.cancelRequested) throw new JobCancelled();

      file = await this.#options.spool.write(job.request.kind, job.snapshot.id, document.pdf);
      const printer = job.snapshot.printer ?? '';
      const spooled = file;
      const backendJobId = await this.#withRetry(job, async () => {
        await this.#preflight(printer);
        return this.#options.backend.print(spooled.path, {
          printer,
          title: `${job.request.kind}-${document.number ?? job.snapshot.id}`,
          copies: job.snapshot.copies,
          media: job.request.media ?? this.#options.media,
        });
      });
      this.#update(job, { state: 'printing', backendJobId });
      if (job.cancelRequested) await this.#options.backend.cancel(backendJobId);
      const final = await this.#follow(job, backendJobId);
      if (final.state === 'completed') outcome = ['completed'];
      else if (final.state === 'cancelled') outcome = ['cancelled'];
      else
        outcome = [
          'failed',
          final.reason ?? { code: 'job_aborted', message: 'The printer gave up on the job.' },
        ];
    } catch (error) {
      if (
        error instanceof JobCancelled ||
        (job.cancelRequested && job.snapshot.backendJobId === undefined)
      ) {
        outcome = ['cancelled'];
      } else {
        outcome = ['failed', problemOf(error)];
      }
    } finally {
      await file?.remove().catch(() => undefined);
    }
    this.#finish(job, ...outcome);
  }

  /** A stopped or refusing printer would hold the job silently: say so before sending. */
  async #preflight(printer: string): Promise<void> {
    const info = (await this.#options.backend.listPrinters()).find(
      (candidate) => candidate.name === printer,
    );
    if (!info) throw new PrintError('printer_unknown', `There is no printer named "${printer}".`);
    if (info.state === 'stopped') {
      const reason = info.reason ?? {
        code: 'printer_stopped',
        message: `The printer "${printer}" is stopped.`,
      };
      throw new PrintError(reason.code, reason.message);
    }
    if (!info.accepting) {
      throw new PrintError(
        'printer_not_accepting',
        `The printer "${printer}" is not accepting jobs.`,
      );
    }
  }

  /** Polls the backend until the job ends, reporting what holds it up along the way. */
  async #follow(job: Job, backendJobId: string): Promise<JobStatus> {
    const { pollIntervalMs, maxStatusErrors, stallTimeoutMs, jobTimeoutMs, backend } =
      this.#options;
    const started = Date.now();
    let stalledSince: number | undefined;
    let errors = 0;
    for (;;) {
      let status: JobStatus | undefined;
      try {
        status = await backend.jobState(backendJobId);
        errors = 0;
      } catch (error) {
        if (!(isPrintError(error) && error.transient) || ++errors >= maxStatusErrors) throw error;
      }
      if (status) {
        if (terminalJobStates.has(status.state)) return status;
        this.#update(job, { problem: status.reason });
        const heldUp = status.state === 'stopped' || status.reason !== undefined;
        stalledSince = heldUp ? (stalledSince ?? Date.now()) : undefined;
        // Also after a cancel that did not take: polling must end some time.
        if (stalledSince !== undefined && Date.now() - stalledSince > stallTimeoutMs) {
          await backend.cancel(backendJobId).catch(() => undefined);
          return {
            state: 'aborted',
            reason: status.reason ?? {
              code: 'job_stalled',
              message: 'The printer did not print the job.',
            },
          };
        }
      }
      if (Date.now() - started > jobTimeoutMs) {
        await backend.cancel(backendJobId).catch(() => undefined);
        return {
          state: 'aborted',
          reason: { code: 'job_stalled', message: 'The printer did not finish the job in time.' },
        };
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollIntervalMs);
        job.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      job.wake = undefined;
    }
  }

  /** Retries a step while the print service is briefly unreachable; anything else fails at once. */
  async #withRetry<T>(job: Job, step: () => Promise<T>): Promise<T> {
    const { maxAttempts, retryDelayMs } = this.#options;
    for (let attempt = 1; ; attempt++) {
      try {
        return await step();
      } catch (error) {
        if (job.cancelRequested) throw new JobCancelled();
        if (!(isPrintError(error) && error.transient) || attempt >= maxAttempts) throw error;
        this.#update(job, { problem: error.toProblem(), retries: job.snapshot.retries + 1 });
        await sleep(retryDelayMs * 2 ** (attempt - 1), undefined, {
          signal: job.abort.signal,
        }).catch(() => undefined);
        if (job.cancelRequested) throw new JobCancelled();
      }
    }
  }

  #update(
    job: Job,
    change: Partial<Omit<PrintJobSnapshot, 'id' | 'createdAt' | 'updatedAt'>>,
  ): void {
    const next = { ...job.snapshot, ...change };
    const changed = (Object.keys(change) as (keyof typeof change)[]).some(
      (key) => JSON.stringify(next[key]) !== JSON.stringify(job.snapshot[key]),
    );
    if (!changed) return;
    job.snapshot = { ...next, updatedAt: this.#options.now().toISOString() };
    this.events.emit('job-changed', job.snapshot);
  }

  #finish(job: Job, state: 'completed' | 'failed' | 'cancelled', problem?: PrintProblem): void {
    if (FINISHED.has(job.snapshot.state)) return;
    this.#update(job, { state, problem });
    this.#jobs.delete(job.snapshot.id);
    this.#history.push(job.snapshot);
    if (job.snapshot.requestId !== undefined && this.#requests.has(job.snapshot.requestId)) {
      this.#finishedByRequest.set(job.snapshot.requestId, job.snapshot);
    }
    while (this.#history.length > this.#options.historySize) this.#history.shift();
    this.events.emit('job-finished', job.snapshot);
    job.resolveDone(job.snapshot);
  }
}
