import type { ReactNode } from 'react';
import type {
  CreditEntry,
  CustomerHistoryView as History,
  HistoryEntryView as HistoryEntry,
} from '../../shared/ipc/records.ts';
import type { IpcError } from '../../shared/ipc/errors.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { newestFirst } from '../stores/newest-first.ts';
import type { SaleView, SavLogView } from '../stores/customer-store.ts';
import type { DocumentRef } from '../stores/document-store.ts';
import { ErrorNotice } from './ErrorNotice.tsx';
import { recordStatus } from './record-status.ts';
import { SaleDetail } from './SaleDetail.tsx';
import { SavLog } from './SavLog.tsx';

/** A history entry that can be opened: the service gave its identifier. */
type Identified = HistoryEntry & { readonly id: string };

/**
 * Sales, after-sales cases and credits, newest first. A family the account may not read is
 * absent from the service's answer, and the screen says so instead of showing an empty list. The
 * history does not say which sales have an invoice: once the store has read that, Print invoice
 * sits in the sale's row (inside the open details instead, so it is never offered twice).
 */
export function CustomerHistory({
  history,
  historyError,
  credits,
  creditsError,
  savLog,
  sale,
  invoices = {},
  onPrint,
  onReadLog,
  onCloseLog,
  onOpenSale,
  onCloseSale,
  onUseCard,
}: {
  readonly history: History | null;
  readonly historyError: IpcError | null;
  readonly credits: readonly CreditEntry[] | null;
  readonly creditsError: IpcError | null;
  readonly savLog: SavLogView | null;
  readonly sale: SaleView | null;
  /** Which sales have an invoice, as far as read: Print invoice is offered in their row. */
  readonly invoices?: Readonly<Record<string, boolean | null>>;
  readonly onPrint: (document: DocumentRef) => void;
  readonly onReadLog: (savId: string) => void;
  readonly onCloseLog: () => void;
  readonly onOpenSale: (saleId: string) => void;
  readonly onCloseSale: () => void;
  /** Opens the gift-card screen on this card, looked up. */
  readonly onUseCard?: (giftCardId: string) => void;
}) {
  const { t, fmt } = useI18n();
  const notProvided = t('record.notProvided');
  const numberOf = (entry: HistoryEntry) => entry.number ?? entry.id ?? notProvided;

  const entryText = (entry: HistoryEntry) =>
    [
      t('history.number', { number: numberOf(entry) }),
      entry.date === null ? null : fmt.dateTime(entry.date),
      entry.status === null ? null : recordStatus(entry.status, t),
      entry.total === null ? null : fmt.money(entry.total),
    ]
      .filter(Boolean)
      .join(' · ');

  const family = (
    title: string,
    entries: readonly HistoryEntry[] | null,
    actions: (entry: Identified) => ReactNode,
    below: (entry: Identified) => ReactNode,
    testId: string,
  ) => (
    <section className="history-family" aria-label={title} data-testid={testId}>
      <h3>{title}</h3>
      {entries === null ? (
        <p>{t('history.notAllowed')}</p>
      ) : entries.length === 0 ? (
        <p>{t('history.empty')}</p>
      ) : (
        <ul className="history-list">
          {newestFirst(entries).map((entry, index) => (
            <li key={entry.id ?? index} className="history-entry">
              <span>{entryText(entry)}</span>
              {/* Without its identifier an entry cannot be opened or printed. */}
              {entry.id !== null && (
                <span className="history-actions">{actions({ ...entry, id: entry.id })}</span>
              )}
              {entry.id !== null && below({ ...entry, id: entry.id })}
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
            <>
              <button
                type="button"
                className="button"
                aria-expanded={sale?.saleId === entry.id}
                aria-label={t('history.saleDetailsOf', { number: numberOf(entry) })}
                onClick={() => (sale?.saleId === entry.id ? onCloseSale() : onOpenSale(entry.id))}
              >
                {t('history.saleDetails')}
              </button>
              {invoices[entry.id] === true && sale?.saleId !== entry.id && (
                <button
                  type="button"
                  className="button button-primary"
                  aria-label={t('history.printInvoiceOf', { number: numberOf(entry) })}
                  onClick={() =>
                    onPrint({ kind: 'invoice', reference: entry.id, number: numberOf(entry) })
                  }
                >
                  {t('history.printInvoice')}
                </button>
              )}
            </>
          ),
          (entry) =>
            sale?.saleId === entry.id && (
              <SaleDetail
                view={sale}
                number={numberOf(entry)}
                onPrint={onPrint}
                {...(onUseCard ? { onUseCard } : {})}
              />
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
                aria-expanded={savLog?.savId === sav.id}
                aria-label={t('history.readLogOf', { number: numberOf(sav) })}
                onClick={() => (savLog?.savId === sav.id ? onCloseLog() : onReadLog(sav.id))}
              >
                {t('history.readLog')}
              </button>
              <button
                type="button"
                className="button"
                aria-label={t('history.printSlipOf', { number: numberOf(sav) })}
                onClick={() =>
                  onPrint({ kind: 'sav-slip', reference: sav.id, number: numberOf(sav) })
                }
              >
                {t('history.printSlip')}
              </button>
            </>
          ),
          (entry) => savLog?.savId === entry.id && <SavLog log={savLog} number={numberOf(entry)} />,
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
            {credits.map((credit, index) => (
              <li key={credit.id ?? index} className="history-entry">
                <span>
                  {[
                    credit.label,
                    credit.isGiftCard === null
                      ? credit.type
                      : t(credit.isGiftCard ? 'credit.giftCard' : 'credit.creditNote'),
                    t('credit.remaining', {
                      remaining:
                        credit.remainingAmount === null
                          ? notProvided
                          : fmt.money(credit.remainingAmount),
                    }),
                    credit.status === null ? null : recordStatus(credit.status, t),
                    credit.expiresOn && t('credit.expires', { date: fmt.date(credit.expiresOn) }),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
                {/* Only a gift card the service names can be opened; a credit note has no card. */}
                {onUseCard && credit.isGiftCard === true && credit.giftCardId && (
                  <button
                    type="button"
                    className="button"
                    aria-label={t('credit.useCardLabel', {
                      label: credit.label ?? t('credit.giftCard'),
                    })}
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
