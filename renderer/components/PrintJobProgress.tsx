import { useState } from 'react';
import type { PrinterInfo, PrintJob } from '../../shared/ipc/printing.ts';
import type { MessageKey } from '../i18n/catalogue.ts';
import { printProblemKeys } from '../i18n/describe-error.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { printerStateKeys } from './PrinterIndicator.tsx';

type JobState = PrintJob['state'];

const stateKeys: Readonly<Record<JobState, MessageKey>> = {
  queued: 'job.queued',
  sending: 'job.sending',
  printing: 'job.printing',
  completed: 'job.completed',
  failed: 'job.failed',
  cancelled: 'job.cancelled',
};

/** The way a job normally goes; a failed or cancelled job stops where it was. */
const steps: readonly JobState[] = ['queued', 'sending', 'printing', 'completed'];

export function isFinished(job: PrintJob): boolean {
  return job.state === 'completed' || job.state === 'failed' || job.state === 'cancelled';
}

/**
 * Where the job is, step by step, and what holds it up, as the print system reports it. A job
 * held up by its printer says so instead of "Printing": the paper is not coming out, and another
 * printer is offered at once rather than after the stall timeout. A failed job offers to print
 * again, here or on another printer.
 */
export function PrintJobProgress({
  job,
  onCancel,
  onRetry,
  printers,
  onPrintOn,
}: {
  readonly job: PrintJob;
  readonly onCancel: () => void;
  readonly onRetry?: () => void;
  /** The printers to offer instead of the job's own after a failure. */
  readonly printers?: readonly PrinterInfo[];
  readonly onPrintOn?: (printer: string) => void;
}) {
  const { t } = useI18n();
  const [choosing, setChoosing] = useState(false);
  const reached = steps.indexOf(job.state);
  const problem = job.problem ? printProblemKeys[job.problem.code] : undefined;
  const heldUp = !isFinished(job) && job.problem !== null;
  const others = (printers ?? []).filter((printer) => printer.name !== job.printer);
  // The print system's own words, for support: CUPS speaks English whatever the screen's language,
  // so they stay folded under the kiosk's words rather than read as the explanation.
  const detail = job.problem?.code === 'filter_failed' ? job.problem.message : null;
  const offerOthers = (job.state === 'failed' || heldUp) && onPrintOn && others.length > 0;
  return (
    <div
      className="print-job"
      data-testid="print-job"
      data-state={job.state}
      data-held={heldUp ? 'true' : undefined}
    >
      <p className="outcome-title" role="status">
        {heldUp ? t('job.heldUp') : t(stateKeys[job.state])}
        {job.state === 'completed' && job.printer && ` · ${t('job.on', { printer: job.printer })}`}
      </p>
      <ol className="steps" aria-label={t('job.steps')}>
        {steps.map((step, index) => (
          <li
            key={step}
            className={
              index === reached && heldUp
                ? 'step step-held'
                : index <= reached
                  ? 'step step-done'
                  : 'step'
            }
            aria-current={index === reached ? 'step' : undefined}
          >
            {t(stateKeys[step])}
          </li>
        ))}
      </ol>
      {problem && (
        <p className="notice notice-error" role="alert">
          {t(problem)}
        </p>
      )}
      {detail && (
        <details className="hint" data-testid="print-job-detail">
          <summary>{t('job.systemMessage')}</summary>
          <p lang="en">{detail}</p>
        </details>
      )}
      {!isFinished(job) && (
        <button type="button" className="button" onClick={onCancel}>
          {t('job.cancel')}
        </button>
      )}
      {((job.state === 'failed' && onRetry) || offerOthers) && (
        <div className="job-actions">
          {job.state === 'failed' && onRetry && (
            <button type="button" className="button button-primary" onClick={onRetry}>
              {t('job.retry')}
            </button>
          )}
          {offerOthers && (
            <button
              type="button"
              className="button"
              aria-expanded={choosing}
              onClick={() => setChoosing(!choosing)}
            >
              {t('job.anotherPrinter')}
            </button>
          )}
        </div>
      )}
      {offerOthers && choosing && (
        <ul className="job-actions" aria-label={t('job.otherPrinters')}>
          {others.map((printer) => (
            <li key={printer.name}>
              <button
                type="button"
                className="button"
                onClick={() => {
                  setChoosing(false);
                  onPrintOn(printer.name);
                }}
              >
                {t('job.printOn', {
                  printer: t('printer.summary', {
                    name: printer.name,
                    state: t(printerStateKeys[printer.state]),
                  }),
                })}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
