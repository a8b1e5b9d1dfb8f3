import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PrintProblem } from '../../shared/ipc/printing.ts';
import {
  checkPrintOptions,
  PrintError,
  type JobStatus,
  type PrintBackend,
  type PrinterInfo,
  type PrintOptions,
} from './backend.ts';
import {
  CommandFailed,
  runCommand,
  type CommandResult,
  type CommandRunner,
} from './command-runner.ts';
import {
  finishedJobStatus,
  jobBlock,
  listsJob,
  parseJobId,
  parsePrinters,
  stoppedJobFailure,
  type ParsedPrinter,
} from './cups-output.ts';
import { printerProblem } from './printer-problems.ts';

export interface CupsBackendOptions {
  /**
   * The scheduler as `host:port` (exported as CUPS_SERVER to every tool); the system's own
   * choice (client.conf, local socket) when absent.
   */
  readonly server?: string | undefined;
  /** Folder of lp, lpstat, cancel and ipptool; looked up on PATH when absent. */
  readonly binDir?: string | undefined;
  readonly commandTimeoutMs?: number | undefined;
  /**
   * ipptool is the only CUPS tool that tells a completed job from a cancelled or aborted one
   * (`lpstat -W completed` lists all three alike). Debian's cups pulls it in (via
   * cups-filters-core-drivers) and macOS ships it; without it, a finished job counts as
   * completed unless this backend cancelled it.
   */
  readonly useIpptool?: boolean | undefined;
  readonly run?: CommandRunner | undefined;
}

/**
 * Printing through CUPS with its command-line tools (Linux, macOS). Every tool runs with
 * LC_ALL=C: their output is parsed, and translated output would not match.
 */
export class CupsBackend implements PrintBackend {
  readonly name = 'cups';
  readonly #server: string | undefined;
  readonly #binDir: string | undefined;
  readonly #timeoutMs: number;
  readonly #run: CommandRunner;
  #ipptoolMissing: boolean;
  #ipptoolTestFile: Promise<{ directory: string; file: string }> | undefined;
  /** Jobs cancelled through this backend: the fallback when ipptool cannot say. */
  readonly #cancelledHere = new Set<string>();

  constructor(options: CupsBackendOptions = {}) {
    this.#server = options.server;
    this.#binDir = options.binDir;
    this.#timeoutMs = options.commandTimeoutMs ?? 15_000;
    this.#run = options.run ?? runCommand;
    this.#ipptoolMissing = options.useIpptool === false;
  }

  async listPrinters(): Promise<PrinterInfo[]> {
    const [printers, accepting, defaultName] = await Promise.all([
      this.#printers(),
      this.#accepting(),
      this.defaultPrinter(),
    ]);
    return printers.map((printer) =>
      toInfo(printer, accepting.get(printer.name) ?? true, defaultName),
    );
  }

  /**
   * `lpstat -d` says "no system default destination" and exits 0 when the scheduler is down as
   * well: the scheduler is asked before "no default" is believed, so a print without a printer
   * reports `scheduler_down` as `kioskctl printers` does, not `no_printer`.
   */
  async defaultPrinter(): Promise<string | undefined> {
    const result = await this.#lpstat(['-d']);
    const match = /^system default destination: (\S+)/m.exec(result.stdout);
    if (match?.[1]) return match[1];
    if (
      /no system default destination/.test(result.stdout + result.stderr) ||
      result.exitCode === 0
    ) {
      if (!(await this.#schedulerRunning())) throw schedulerDown();
      return undefined;
    }
    throw this.#failure(result, 'lpstat');
  }

  async print(file: string, options: PrintOptions): Promise<string> {
    const checked = checkPrintOptions(options);
    const args = ['-d', checked.printer, '-t', checked.title, '-n', String(checked.copies)];
    if (checked.media !== undefined) args.push('-o', `media=${checked.media}`);
    args.push(file);
    let result: CommandResult;
    try {
      result = await this.#tool('lp', args);
    } catch (error) {
      // lp timed out: the job may or may not be queued, and sending it again could print twice.
      if (error instanceof PrintError && error.transient) {
        throw new PrintError(
          'print_failed',
          'The print service did not confirm the job; check the printer before printing again.',
          {
            cause: error,
          },
        );
      }
      throw error;
    }
    const match = /request id is (\S+)-(\d+)/.exec(result.stdout);
    if (result.exitCode === 0 && match) {
      return `${match[1]}-${match[2]}`;
    }
    throw await this.#explainLpFailure(result, checked.printer);
  }

  async jobState(jobId: string): Promise<JobStatus> {
    const { queue, number } = parseJobId(jobId);
    const active = await this.#lpstat(['-W', 'not-completed', '-o', queue]);
    if (active.exitCode !== 0) throw await this.#explainQueueFailure(active, queue);
    if (listsJob(active.stdout, jobId)) {
      const failure = await this.#documentFailure(queue, number);
      if (failure) {
        // CUPS keeps the failed job, stopped, and would print it if the queue were restarted:
        // the kiosk has said it failed and staff may print again, so it must never come out too.
        await this.cancel(jobId).catch(() => undefined);
        return { state: 'aborted', reason: failure };
      }
      const printer = await this.#printer(queue);
      if (printer?.printingJob === jobId) {
        return { state: 'processing', reason: printerProblem(printer, true) };
      }
      if (printer?.state === 'stopped') {
        return { state: 'stopped', reason: printerProblem(printer, true) };
      }
      // Queued behind other jobs: what holds the printer up holds this job up too.
      const reason =
        (await this.#holdReason(queue, jobId)) ??
        (printer ? printerProblem(printer, true) : undefined);
      return { state: 'pending', reason };
    }
    const finished = await this.#lpstat(['-W', 'completed', '-o', queue]);
    if (finished.exitCode !== 0) throw await this.#explainQueueFailure(finished, queue);
    if (!listsJob(finished.stdout, jobId)) {
      throw new PrintError('job_unknown', `The print service does not know job ${jobId}.`);
    }
    const exact = await this.#finishedState(queue, number);
    if (exact) return exact;
    return this.#cancelledHere.has(jobId) ? { state: 'cancelled' } : { state: 'completed' };
  }

  async cancel(jobId: string): Promise<void> {
    parseJobId(jobId);
    const result = await this.#tool('cancel', [jobId]);
    const text = `${result.stdout}\n${result.stderr}`;
    // Finished before the cancel arrived: nothing is printing any more, which is what was asked.
    if (result.exitCode === 0 || /already (canceled|cancelled|completed|aborted)/i.test(text)) {
      this.#cancelledHere.add(jobId);
      return;
    }
    if (/does not exist/i.test(text)) {
      throw (await this.#schedulerRunning())
        ? new PrintError('job_unknown', `The print service does not know job ${jobId}.`)
        : schedulerDown();
    }
    throw this.#failure(result, 'cancel');
  }

  /** True when the scheduler answers; `lpstat -r` exits 0 either way, so read what it says. */
  async schedulerRunning(): Promise<boolean> {
    return this.#schedulerRunning();
  }

  async #schedulerRunning(): Promise<boolean> {
    try {
      const result = await this.#tool('lpstat', ['-r']);
      return /scheduler is running/i.test(result.stdout);
    } catch {
      return false;
    }
  }

  async #printers(only?: string): Promise<ParsedPrinter[]> {
    const result = await this.#lpstat(only === undefined ? ['-l', '-p'] : ['-l', '-p', only]);
    if (result.exitCode !== 0) {
      // No printer at all is an empty list, not a failure.
      if (only === undefined && /no destinations added/i.test(result.stderr)) return [];
      throw only === undefined
        ? this.#failure(result, 'lpstat')
        : await this.#explainQueueFailure(result, only);
    }
    return parsePrinters(result.stdout);
  }

  async #printer(queue: string): Promise<ParsedPrinter | undefined> {
    const printers = await this.#printers(queue);
    return printers.find((printer) => printer.name === queue);
  }

  async #accepting(): Promise<Map<string, boolean>> {
    const result = await this.#lpstat(['-a']);
    const accepting = new Map<string, boolean>();
    if (result.exitCode !== 0) {
      if (/no destinations added/i.test(result.stderr)) return accepting;
      throw this.#failure(result, 'lpstat');
    }
    for (const line of result.stdout.split('\n')) {
      const match = /^(\S+) (not )?accepting requests/.exec(line);
      if (match?.[1]) accepting.set(match[1], match[2] === undefined);
    }
    return accepting;
  }

  async #holdReason(queue: string, jobId: string): Promise<PrintProblem | undefined> {
    const result = await this.#lpstat(['-l', '-o', queue]);
    const block = jobBlock(result.stdout, jobId);
    if (block && /Alerts:.*job-hold-until/.test(block)) {
      return { code: 'job_held', message: `Job ${jobId} is held in the queue.` };
    }
    return undefined;
  }

  async #finishedState(queue: string, number: string): Promise<JobStatus | undefined> {
    const output = await this.#jobAttributes(queue, number);
    return output === undefined ? undefined : finishedJobStatus(output);
  }

  /** A job a filter gave up on; only ipptool tells (lpstat shows it as waiting). */
  async #documentFailure(queue: string, number: string): Promise<PrintProblem | undefined> {
    const output = await this.#jobAttributes(queue, number);
    return output === undefined ? undefined : stoppedJobFailure(output);
  }

  /** ipptool's CSV of the job's state, reasons and message; undefined when it cannot say. */
  async #jobAttributes(queue: string, number: string): Promise<string | undefined> {
    if (this.#ipptoolMissing) return undefined;
    // A local socket path cannot be spelled as an ipp:// host.
    if (this.#server?.startsWith('/')) return undefined;
    let result: CommandResult;
    try {
      const testFile = await this.#jobAttributesTest();
      const uri = `ipp://${this.#server ?? 'localhost'}/printers/${encodeURIComponent(queue)}`;
      result = await this.#tool('ipptool', ['-c', '-d', `job_id=${number}`, uri, testFile]);
    } catch (error) {
      if (error instanceof PrintError && error.code === 'backend_unavailable') {
        this.#ipptoolMissing = true;
        return undefined;
      }
      throw error;
    }
    return result.exitCode === 0 ? result.stdout : undefined;
  }

  async #jobAttributesTest(): Promise<string> {
    // ipptool reads requests only from a test file; it lives in a private folder of its own.
    this.#ipptoolTestFile ??= (async () => {
      const directory = await mkdtemp(join(tmpdir(), 'kiosk-ipptool-'));
      const file = join(directory, 'get-job-state.test');
      await writeFile(file, JOB_STATE_TEST, { mode: 0o600 });
      return { directory, file };
    })();
    return (await this.#ipptoolTestFile).file;
  }

  async dispose(): Promise<void> {
    const pending = this.#ipptoolTestFile;
    this.#ipptoolTestFile = undefined;
    if (pending) {
      const { directory } = await pending.catch(() => ({ directory: undefined }));
      if (directory) await rm(directory, { recursive: true, force: true });
    }
  }

  #lpstat(args: readonly string[]): Promise<CommandResult> {
    return this.#tool('lpstat', args);
  }

  async #tool(
    tool: 'lp' | 'lpstat' | 'cancel' | 'ipptool',
    args: readonly string[],
  ): Promise<CommandResult> {
    const file = this.#binDir === undefined ? tool : join(this.#binDir, tool);
    try {
      return await this.#run(file, args, {
        env: {
          LC_ALL: 'C',
          LANG: 'C',
          ...(this.#server === undefined ? {} : { CUPS_SERVER: this.#server }),
        },
        timeoutMs: this.#timeoutMs,
      });
    } catch (error) {
      if (error instanceof CommandFailed && error.systemCode === 'TIMEOUT') {
        throw new PrintError('scheduler_down', 'The print service did not answer in time.', {
          transient: true,
          cause: error,
        });
      }
      if (
        error instanceof CommandFailed &&
        (error.systemCode === 'ENOENT' || error.systemCode === 'EACCES')
      ) {
        throw new PrintError(
          'backend_unavailable',
          `The CUPS tool "${tool}" is not installed on this computer.`,
          {
            cause: error,
          },
        );
      }
      throw error;
    }
  }

  /** `lp` says "printer does not exist" even when the scheduler is down: ask which it is. */
  async #explainLpFailure(result: CommandResult, printer: string): Promise<PrintError> {
    const text = result.stderr + result.stdout;
    if (/does not exist|not found|invalid destination/i.test(text)) {
      return (await this.#schedulerRunning()) ? unknownPrinter(printer) : schedulerDown();
    }
    if (/not accepting jobs/i.test(text)) {
      return new PrintError(
        'printer_not_accepting',
        `The printer "${printer}" is not accepting jobs.`,
      );
    }
    return this.#failure(result, 'lp');
  }

  async #explainQueueFailure(result: CommandResult, queue: string): Promise<PrintError> {
    if (/invalid destination|does not exist/i.test(result.stderr)) {
      return (await this.#schedulerRunning()) ? unknownPrinter(queue) : schedulerDown();
    }
    return this.#failure(result, 'lpstat');
  }

  #failure(result: CommandResult, tool: string): PrintError {
    const text = `${result.stderr}\n${result.stdout}`;
    if (
      /scheduler is not running|unable to connect|connection refused|bad file descriptor|host is down|no route to host/i.test(
        text,
      )
    ) {
      return schedulerDown();
    }
    const detail = result.stderr.trim().split('\n')[0] ?? '';
    return new PrintError('print_failed', `${tool} failed${detail === '' ? '' : `: ${detail}`}`);
  }
}

function schedulerDown(): PrintError {
  return new PrintError(
    'scheduler_down',
    'The print service (CUPS) is not running or cannot be reached.',
    {
      transient: true,
    },
  );
}

function unknownPrinter(printer: string): PrintError {
  return new PrintError('printer_unknown', `There is no printer named "${printer}".`);
}

function toInfo(
  printer: ParsedPrinter,
  accepting: boolean,
  defaultName: string | undefined,
): PrinterInfo {
  const reason =
    printerProblem(printer, false) ?? (accepting ? undefined : notAccepting(printer.name));
  return {
    name: printer.name,
    isDefault: printer.name === defaultName,
    state: printer.state,
    accepting,
    ...(reason ? { reason } : {}),
  };
}

function notAccepting(name: string): PrintProblem {
  return { code: 'printer_not_accepting', message: `The printer "${name}" is not accepting jobs.` };
}

const JOB_STATE_TEST = `{
  NAME "job state"
  OPERATION Get-Job-Attributes
  GROUP operation-attributes-tag
  ATTR charset attributes-charset utf-8
  ATTR naturalLanguage attributes-natural-language en
  ATTR uri printer-uri $uri
  ATTR integer job-id $job_id
  ATTR name requesting-user-name $user
  ATTR keyword requested-attributes job-state,job-state-reasons,job-printer-state-message
  STATUS successful-ok
  DISPLAY job-state
  DISPLAY job-state-reasons
  DISPLAY job-printer-state-message
}
`;
