import type { ReactNode } from 'react';
import type {
  Credit,
  CustomerHistory as History,
  HistoryEntry,
} from '../../shared/api/customers.ts';
import type { IpcError } from '../../shared/ipc/errors.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import type { SaleView, SavLogView } from '../stores/customer-store.ts';
import type { DocumentRef } from '../stores/document-store.ts';
import { ErrorNotice } from './ErrorNotice.tsx';
import { recordStatus } from './record-status.ts';
import { SaleDetail } from './SaleDetail.tsx';
import { SavLog } from './SavLog.tsx';

/**
 * Sales, after-sales cases and credits. A family the account may not read is absent from the
 * service's answer, and the screen says so instead of showing an empty list. A sale opens (read
 * from the service) before its invoice can be printed: the history does not say which sales
 * have one.
 */
export function CustomerHistory({
  history,
  historyError,
  credits,
  creditsError,
  savLog,
  sale,
  onPrint,
  onReadLog,
  onCloseLog,
  onOpenSale,
  onCloseSale,
  onUseCard,
}: {
  readonly history: History | null;
  readonly historyError: IpcError | null;
  readonly credits: readonly Credit[] | null;
  readonly creditsError: IpcError | null;
  readonly savLog: SavLogView | null;
  readonly sale: SaleView | null;
  readonly onPrint: (document: DocumentRef) => void;
  readonly onReadLog: (savId: string) => void;
  readonly onCloseLog: () => void;
  readonly onOpenSale: (saleId: string) => void;
  readonly onCloseSale: () => void;
  /** Opens the gift-card screen on this card, looked up. */
  readonly onUseCard?: (giftCardId: string) => void;
}) {
  const { t, fmt } = useI18n();

  const entryText = (entry: HistoryEntry) =>
    [
      t('history.number', { number: entry.number }),
      fmt.dateTime(entry.date),
      recordStatus(entry.status, t),
      entry.totalInclTax === null ? null : fmt.money(entry.totalInclTax),
    ]
      .filter(Boolean)
      .join(' · ');

  const family = (
    title: string,
    entries: readonly HistoryEntry[] | undefined,
    actions: (entry: HistoryEntry) => ReactNode,
    below: (entry: HistoryEntry) => ReactNode,
    testId: string,
  ) => (
    <section className="history-family" aria-label={title} data-testid={testId}>
      <h3>{title}</h3>
      {entries === undefined ? (
        <p>{t('history.notAllowed')}</p>
      ) : entries.length === 0 ? (
        <p>{t('history.empty')}</p>
      ) : (
        <ul className="history-list">
          {entries.map((entry) => (
            <li key={entry.uuid} className="history-entry">
              <span>{entryText(entry)}</span>
              <span className="history-actions">{actions(entry)}</span>
              {below(entry)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );

  return (
    <div className="customer-history">
      {historyError && <ErrorNotice error={historyError} />}
      {history &&
        family(
          t('history.sales'),
          history.sales,
          (entry) => (
            <button
              type="button"
              className="button"
              aria-expanded={sale?.saleId === entry.uuid}
              aria-label={t('history.saleDetailsOf', { number: entry.number })}
              onClick={() => (sale?.saleId === entry.uuid ? onCloseSale() : onOpenSale(entry.uuid))}
            >
              {t('history.saleDetails')}
            </button>
          ),
          (entry) =>
            sale?.saleId === entry.uuid && (
              <SaleDetail view={sale} number={entry.number} onPrint={onPrint} />
            ),
          'history-sales',
        )}
      {history &&
        family(
          t('history.sav'),
          history.sav,
          (sav) => (
            <>
              <button
                type="button"
                className="button"
                aria-expanded={savLog?.savId === sav.uuid}
                aria-label={t('history.readLogOf', { number: sav.number })}
                onClick={() => (savLog?.savId === sav.uuid ? onCloseLog() : onReadLog(sav.uuid))}
              >
                {t('history.readLog')}
              </button>
              <button
                type="button"
                className="button"
                aria-label={t('history.printSlipOf', { number: sav.number })}
                onClick={() =>
                  onPrint({ kind: 'sav-slip', reference: sav.uuid, number: sav.number })
                }
              >
                {t('history.printSlip')}
              </button>
            </>
          ),
          (entry) => savLog?.savId === entry.uuid && <SavLog log={savLog} number={entry.number} />,
          'history-sav',
        )}
      <section
        className="history-family"
        aria-label={t('history.credits')}
        data-testid="history-credits"
      >
        <h3>{t('history.credits')}</h3>
        {creditsError && <ErrorNotice error={creditsError} />}
        {credits?.length === 0 && <p>{t('history.empty')}</p>}
        {credits && credits.length > 0 && (
          <ul className="history-list">
            {credits.map((credit) => (
              <li key={credit.id} className="history-entry">
                <span>
                  {[
                    credit.label,
                    t(credit.type === 'gift_card' ? 'credit.giftCard' : 'credit.creditNote'),
                    t('credit.remaining', {
                      remaining: fmt.money(credit.remainingAmount),
                      initial: fmt.money(credit.initialAmount),
                    }),
                    recordStatus(credit.status, t),
                    credit.expiresOn && t('credit.expires', { date: fmt.date(credit.expiresOn) }),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
                {/* Only a gift card the service names can be opened; a credit note has no card. */}
                {onUseCard && credit.type === 'gift_card' && credit.giftCardId && (
                  <button
                    type="button"
                    className="button"
                    aria-label={t('credit.useCardLabel', { label: credit.label })}
                    onClick={() => onUseCard(credit.giftCardId ?? '')}
                  >
                    {t('credit.useCard')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
