import { useId, useState } from 'react';
import { dayReportTotals } from '../../shared/ipc/day-report-totals.ts';
import { collectionMethods, debitStates, type DebitView } from '../../shared/ipc/gift-cards.ts';
import type { DayReportLabels } from '../../shared/ipc/printing.ts';
import { intlTagOf } from '../i18n/locale.ts';
import type { I18n } from '../i18n/use-i18n.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { useKiosk } from '../hooks/use-store.ts';
import { useStores } from '../stores/stores-context.tsx';
import { formatDay, parseDay, shiftDay } from '../input/day-entry.ts';
import { cardLabel, saleLabel } from './debit-labels.ts';
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
    columns: {
      time: t('dayReport.column.time'),
      amount: t('dayReport.column.amount'),
      card: t('dayReport.column.card'),
      sale: t('dayReport.column.sale'),
      state: t('dayReport.column.state'),
      offline: t('dayReport.column.offline'),
      resolution: t('dayReport.column.resolution'),
      count: t('dayReport.column.count'),
    },
    totals: t('dayReport.totals'),
    cardNotRead: t('debit.cardNotRead'),
    noSaleReference: t('debit.noSaleReference'),
  };
}

/**
 * The end-of-day report: every gift-card debit of a day with its state, the ones taken offline
 * marked, and what staff recorded about those refused after the customer left, under column
 * headers, then the totals by state. The day is typed as the kiosk's language writes it (or
 * stepped a day at a time), never in the browser's own format.
 */
export function DayReport() {
  const { t, fmt, locale } = useI18n();
  const { outbox, documents } = useStores();
  const report = useKiosk('outbox', (s) => s.dayReport);
  const printing = useKiosk('documents', (s) => s.dayReportPrinting);
  const printError = useKiosk('documents', (s) => s.dayReportError);
  const jobId = useKiosk('documents', (s) => s.dayReportJobId);
  const printed = useKiosk('printers', (s) => (jobId === null ? null : (s.jobs[jobId] ?? null)));
  // Another day on screen: the last day's job is not this report's.
  const job = printed && report && printed.reference === report.date ? printed : null;
  const [text, setText] = useState(() => formatDay(localToday(), locale));
  const [invalid, setInvalid] = useState(false);
  const dayId = useId();
  const errorId = useId();
  const load = (day: string) => {
    setText(formatDay(day, locale));
    setInvalid(false);
    void outbox.getState().loadDayReport(day);
  };
  const step = (days: number) => load(shiftDay(parseDay(text, locale) ?? localToday(), days));

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
        className="day-report-form"
        onSubmit={(event) => {
          event.preventDefault();
          const day = parseDay(text, locale);
          if (day === null) setInvalid(true);
          else load(day);
        }}
      >
        <div className="field">
          <label htmlFor={dayId} className="field-label">
            {t('dayReport.date')}
          </label>
          <input
            id={dayId}
            className="input"
            inputMode="numeric"
            autoComplete="off"
            value={text}
            placeholder={t('dayReport.dateHint')}
            aria-invalid={invalid}
            aria-describedby={invalid ? errorId : undefined}
            onChange={(event) => {
              setText(event.target.value);
              setInvalid(false);
            }}
          />
        </div>
        <button type="button" className="button" onClick={() => step(-1)}>
          {t('dayReport.previousDay')}
        </button>
        <button type="button" className="button" onClick={() => step(1)}>
          {t('dayReport.nextDay')}
        </button>
        <button type="submit" className="button">
          {t('dayReport.show')}
        </button>
      </form>
      {invalid && (
        <p id={errorId} className="note-warning" role="alert">
          {t('dayReport.dateInvalid', { hint: t('dayReport.dateHint') })}
        </p>
      )}
      {report &&
        (report.debits.length === 0 ? (
          <p>{t('dayReport.emptyOn', { date: fmt.date(report.date) })}</p>
        ) : (
          <table className="day-report-table">
            <caption>{t('dayReport.caption', { date: fmt.date(report.date) })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('dayReport.column.time')}</th>
                <th scope="col" className="numeric">
                  {t('dayReport.column.amount')}
                </th>
                <th scope="col">{t('dayReport.column.card')}</th>
                <th scope="col">{t('dayReport.column.sale')}</th>
                <th scope="col">{t('dayReport.column.state')}</th>
                <th scope="col">{t('dayReport.column.offline')}</th>
                <th scope="col">{t('dayReport.column.resolution')}</th>
              </tr>
            </thead>
            <tbody>
              {report.debits.map((debit) => (
                <tr key={debit.id} data-testid="day-report-row" data-state={debit.state}>
                  <td>{fmt.dateTime(debit.createdAt)}</td>
                  <td className="numeric">{fmt.money(debit.amount)}</td>
                  <td>{cardLabel(debit, t)}</td>
                  <td>{saleLabel(debit, t)}</td>
                  <td>{t(debitStateKeys[debit.state])}</td>
                  <td>{debit.acceptedOffline ? t('dayReport.offline') : ''}</td>
                  <td>{resolution(debit)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              {dayReportTotals(report.debits, debitStates).map((total) => (
                <tr key={total.state} data-testid="day-report-total" data-state={total.state}>
                  <th scope="row" colSpan={2}>
                    {t('dayReport.totalOf', { state: t(debitStateKeys[total.state]) })}
                  </th>
                  <td colSpan={2}>{t('dayReport.count', { count: fmt.integer(total.count) })}</td>
                  <td colSpan={3} className="numeric">
                    {fmt.money(total.amount)}
                  </td>
                </tr>
              ))}
            </tfoot>
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
