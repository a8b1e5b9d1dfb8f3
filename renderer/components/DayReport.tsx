import { useState } from 'react';
import type { DebitView } from '../../shared/ipc/gift-cards.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { useKiosk } from '../hooks/use-store.ts';
import { useStores } from '../stores/stores-context.tsx';
import { cardLabel, saleReference } from './AfterTheFactAlert.tsx';
import { debitStateKeys } from './debit-state-labels.ts';

/** Today in the kiosk's time zone, as the date field and the report want it. */
function localToday(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * The end-of-day report: every gift-card debit of a day with its state, the ones taken offline
 * marked, and what staff recorded about those refused after the customer left.
 */
export function DayReport() {
  const { t, fmt } = useI18n();
  const { outbox } = useStores();
  const report = useKiosk('outbox', (s) => s.dayReport);
  const [date, setDate] = useState(localToday);

  const resolution = (debit: DebitView) => {
    const record = debit.staffResolution;
    if (record)
      return [
        t(
          record.kind === 'collected_other_way'
            ? 'afterTheFact.collected'
            : 'afterTheFact.notCollected',
        ),
        record.method && t(`afterTheFact.method.${record.method}`),
        fmt.dateTime(record.at),
      ]
        .filter(Boolean)
        .join(' · ');
    return debit.unresolved ? t('dayReport.unresolved') : '';
  };

  return (
    <section className="day-report" aria-labelledby="day-report-title" data-testid="day-report">
      <h2 id="day-report-title">{t('dayReport.title')}</h2>
      <form
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
    </section>
  );
}
