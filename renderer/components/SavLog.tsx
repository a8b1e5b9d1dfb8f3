import type { SavLogView } from '../stores/customer-store.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { ErrorNotice } from './ErrorNotice.tsx';
import { recordStatus } from './record-status.ts';
import { Busy } from './Busy.tsx';

/** The public log of an after-sales case, oldest entry first as the service lists it. */
export function SavLog({ log, number }: { readonly log: SavLogView; readonly number: string }) {
  const { t, fmt } = useI18n();
  return (
    <div className="sav-log" data-testid="sav-log">
      <h4>{t('savLog.title', { number })}</h4>
      {log.error && <ErrorNotice error={log.error} />}
      {!log.error && log.entries === null && <Busy>{t('common.loading')}</Busy>}
      {log.entries?.length === 0 && <p>{t('savLog.empty')}</p>}
      {log.entries && log.entries.length > 0 && (
        <ol className="log-list">
          {log.entries.map((entry, index) => (
            <li key={`${entry.at}-${index}`}>
              <span className="log-time">
                {entry.at === null ? t('record.notProvided') : fmt.dateTime(entry.at)}
              </span>{' '}
              {entry.status !== null && (
                <span className="badge">{recordStatus(entry.status, t)}</span>
              )}{' '}
              {entry.message ?? t('record.notProvided')}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
