import { useState } from 'react';
import { collectionMethods, debitStates, type DebitView } from '../../shared/ipc/gift-cards.ts';
import type { DayReportLabels } from '../../shared/ipc/printing.ts';
import { intlTagOf } from '../i18n/locale.ts';
import type { I18n } from '../i18n/use-i18n.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { useKiosk } from '../hooks/use-store.ts';
import { useStores } from '../stores/stores-context.tsx';
import { cardLabel, saleReference } from './AttentionAlert.tsx';
import { debitStateKeys } from './debit-state-labels.ts';
import { ErrorNotice } from './ErrorNotice.tsx';
import { PrintJobProgress } from './PrintJobProgress.tsx';

/** Today in the kiosk's time zone, as the date field and the report want it. */
function localToday(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The printed report's words: main makes the PDF, the catalogue is here. */
export function dayReportLabels({ t, locale }: Pick<I18n, 't' | 'locale'>): DayReportLabels {
  const each = <K extends string>(keys: readonly K[], label: (key: K) => string) =>
    Object.fromEntries(keys.map((key) => [key, label(key)])) as Record<K, string>;
  return {
    locale: intlTagOf(locale),
    title: t('dayReport.title'),
    empty: t('dayReport.empty'),
    offline: t('dayReport.offline'),
    needsAttention: t('dayReport.needsAttention'),
    states: each(debitStates, (state) => t(debitStateKeys[state])),
    resolutions: {
      collected_other_way: t('attention.collected'),
      could_not_collect: t('attention.notCollected'),
    },
    methods: each(collectionMethods, (method) => t(`attention.method.${method}`)),
  };
}

/**
 * The end-of-day report: every gift-card debit of a day with its state, the ones taken offline
 * marked, and what staff recorded about those refused after the customer left.
 */
export function DayReport() {
  const { t, fmt, locale } = useI18n();
  const { outbox, documents } = useStores();
  const report = useKiosk('outbox', (s) => s.dayReport);
  const printing = useKiosk('documents', (s) => s.dayReportPrinting);
  const printError = useKiosk('documents', (s) => s.dayReportError);
  const jobId = useKiosk('documents', (s) => s.dayReportJobId);
  const job = useKiosk('printers', (s) => (jobId === null ? null : (s.jobs[jobId] ?? null)));
  const [date, setDate] = useState(localToday);

  const resolution = (debit: DebitView) => {
    const record = debit.staffResolution;
    if (record)
      return [
        t(record.kind === 'collected_other_way' ? 'attention.collected' : 'attention.notCollected'),
        record.method && t(`attention.method.${record.method}`),
        fmt.dateTime(record.at),
      ]
        .filter(Boolean)
        .join(' · ');
    return debit.needsAttention ? t('dayReport.needsAttention') : '';
  };

  return (
    <section className="day-report" aria-labelledby="day-report-title" data-testid="day-report">
      <h2 id="day-report-title">{t('dayReport.title')}</h2>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void outbox.getState().loadDayReport(date);
        }}
      >
        <label>
          {t('dayReport.date')}
          <input
            type="date"
            className="input"
            value={date}
            required
            onChange={(e) => setDate(e.target.value)}
          />
        </label>
        <button type="submit" className="button">
          {t('dayReport.show')}
        </button>
      </form>
      {report &&
        (report.debits.length === 0 ? (
          <p>{t('dayReport.empty')}</p>
        ) : (
          <table>
            <tbody>
              {report.debits.map((debit) => (
                <tr key={debit.id} data-testid="day-report-row" data-state={debit.state}>
                  <td>{fmt.dateTime(debit.createdAt)}</td>
                  <td>{fmt.money(debit.amount)}</td>
                  <td>{cardLabel(debit)}</td>
                  <td>{saleReference(debit)}</td>
                  <td>{t(debitStateKeys[debit.state])}</td>
                  <td>{debit.acceptedOffline ? t('dayReport.offline') : ''}</td>
                  <td>{resolution(debit)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      {report && (
        <button
          type="button"
          className="button button-primary"
          disabled={printing}
          onClick={() =>
            void documents.getState().printDayReport(report.date, dayReportLabels({ t, locale }))
          }
        >
          {t('dayReport.print')}
        </button>
      )}
      {printError && <ErrorNotice error={printError} />}
      {job && (
        <PrintJobProgress
          job={job}
          onCancel={() => void documents.getState().cancelDayReportJob()}
        />
      )}
    </section>
  );
}
