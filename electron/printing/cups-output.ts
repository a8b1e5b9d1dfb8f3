import type { PrinterState, PrintProblem } from '../../shared/ipc/printing.ts';
import { PrintError, type JobStatus } from './backend.ts';
import type { PrinterCondition } from './printer-problems.ts';

/** Reading what the CUPS tools print in the C locale (the backend runs them with LC_ALL=C). */

export interface ParsedPrinter extends PrinterCondition {
  readonly printingJob: string | undefined;
}

/** CUPS request ids are `<queue>-<number>`; a queue name may itself contain dashes. */
export function parseJobId(jobId: string): { queue: string; number: string } {
  const match = /^([^\s/#]+)-(\d+)$/.exec(jobId);
  if (!match?.[1] || !match[2]) {
    throw new PrintError('job_unknown', `"${jobId}" is not a CUPS job id.`);
  }
  return { queue: match[1], number: match[2] };
}

export function listsJob(listing: string, jobId: string): boolean {
  return listing.split('\n').some((line) => line.split(/\s+/)[0] === jobId);
}

/** The job's line and its indented detail lines in `lpstat -l -o`. */
export function jobBlock(listing: string, jobId: string): string | undefined {
  const lines = listing.split('\n');
  const start = lines.findIndex((line) => line.split(/\s+/)[0] === jobId);
  if (start < 0) return undefined;
  const block = [lines[start]];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith('\t') && !line.startsWith(' ')) break;
    block.push(line);
  }
  return block.join('\n');
}

/**
 * `lpstat -l -p` in the C locale:
 *   printer P is idle.  enabled since ...      | printer P now printing P-12.  enabled since ...
 *   printer P disabled since ... -             | printer P is holding new jobs.  enabled since ...
 * followed by tab-indented lines: the printer's status message (if any), then "Form mounted:",
 * ..., "Alerts: <printer-state-reasons>".
 */
export function parsePrinters(output: string): ParsedPrinter[] {
  const printers: ParsedPrinter[] = [];
  let current:
    | {
        name: string;
        state: PrinterState;
        printingJob: string | undefined;
        details: string[];
      }
    | undefined;
  const finish = (): void => {
    if (!current) return;
    const detailsStart = current.details.findIndex((line) => /^\s*Form mounted:/.test(line));
    const messageLines = (
      detailsStart < 0 ? current.details : current.details.slice(0, detailsStart)
    )
      .map((line) => line.trim())
      .filter((line) => line !== '' && line !== 'reason unknown');
    const alerts = current.details
      .map((line) => /^\s*Alerts:\s*(.*)$/.exec(line)?.[1])
      .find((x) => x !== undefined);
    printers.push({
      name: current.name,
      state: current.state,
      printingJob: current.printingJob,
      message: messageLines.length > 0 ? messageLines.join(' ') : undefined,
      reasons: (alerts ?? '').split(/\s+/).filter((reason) => reason !== '' && reason !== 'none'),
    });
  };
  for (const line of output.split('\n')) {
    const header = /^printer (\S+) (.*)$/.exec(line);
    if (header?.[1] !== undefined) {
      finish();
      const rest = header[2] ?? '';
      const printing = /^now printing (\S+?)\.?\s/.exec(rest);
      current = {
        name: header[1],
        state: printing ? 'printing' : /^disabled/.test(rest) ? 'stopped' : 'idle',
        printingJob: printing?.[1],
        details: [],
      };
    } else if (current && /^\s/.test(line)) {
      current.details.push(line);
    }
  }
  finish();
  return printers;
}

/** ipptool's `-c` output for the job-state test: the finished state, when it names one. */
export function finishedJobStatus(output: string): JobStatus | undefined {
  const [header, values] = output.trim().split('\n').map(parseCsvLine);
  if (!header || !values) return undefined;
  const field = (name: string): string => values[header.indexOf(name)] ?? '';
  const message = field('job-printer-state-message').trim();
  switch (field('job-state')) {
    case 'completed':
      return { state: 'completed' };
    case 'canceled':
      return { state: 'cancelled' };
    case 'aborted':
      return {
        state: 'aborted',
        reason: {
          code: 'job_aborted',
          message:
            message === ''
              ? 'The printer gave up on the job.'
              : `The printer gave up on the job: ${message}`,
        },
      };
    default:
      return undefined;
  }
}

/**
 * Job-state-reasons CUPS sets when a filter or the backend gave up on the document. The job is
 * then `processing-stopped` and stays in the queue while its printer looks idle: nothing else
 * would tell it from a job waiting its turn.
 */
const FAILED_DOCUMENT =
  /\b(job-completed-with-errors|document-format-error|document-unprintable-error|document-access-error|aborted-by-system)\b/;

/** ipptool's `-c` output for the job-state test: the failure of a stopped job, when it is one. */
export function stoppedJobFailure(output: string): PrintProblem | undefined {
  const [header, values] = output.trim().split('\n').map(parseCsvLine);
  if (!header || !values) return undefined;
  const field = (name: string): string => values[header.indexOf(name)] ?? '';
  if (field('job-state') !== 'processing-stopped') return undefined;
  if (!FAILED_DOCUMENT.test(field('job-state-reasons'))) return undefined;
  const message = field('job-printer-state-message').trim();
  return {
    code: 'filter_failed',
    message:
      message === ''
        ? 'The print service could not convert the document for the printer.'
        : `The print service could not convert the document for the printer: ${message}`,
  };
}

/** ipptool's CSV: comma-separated, fields with commas or quotes wrapped in double quotes. */
function parseCsvLine(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') {
        quoted = false;
      } else {
        field += char;
      }
    } else if (char === '"') {
      quoted = true;
    } else if (char === ',') {
      fields.push(field);
      field = '';
    } else {
      field += char;
    }
  }
  fields.push(field);
  return fields;
}
