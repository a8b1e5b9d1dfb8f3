import type { PrintJob } from '../../shared/ipc/printing.ts';
import type { MessageKey } from '../i18n/catalogue.ts';
import { printProblemKeys } from '../i18n/describe-error.ts';
import { useI18n } from '../i18n/use-i18n.ts';

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

/** Where the job is, step by step, and what holds it up, as the print system reports it. */
export function PrintJobProgress({
  job,
  onCancel,
}: {
  readonly job: PrintJob;
  readonly onCancel: () => void;
}) {
  const { t } = useI18n();
  const reached = steps.indexOf(job.state);
  const problem = job.problem ? printProblemKeys[job.problem.code] : undefined;
  return (
    <div className="print-job" data-testid="print-job" data-state={job.state}>
      <p className="outcome-title" role="status">
        {t(stateKeys[job.state])}
        {job.state === 'completed' && job.printer && ` · ${t('job.on', { printer: job.printer })}`}
      </p>
      <ol className="steps" aria-label={t('job.steps')}>
        {steps.map((step, index) => (
          <li
            key={step}
            className={index <= reached ? 'step step-done' : 'step'}
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
      {!isFinished(job) && (
        <button type="button" className="button" onClick={onCancel}>
          {t('job.cancel')}
        </button>
      )}
    </div>
  );
}
