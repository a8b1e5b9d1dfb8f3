import { useI18n } from '../i18n/use-i18n.ts';
import type { SaleView } from '../stores/customer-store.ts';
import type { DocumentRef } from '../stores/document-store.ts';
import { ErrorNotice } from './ErrorNotice.tsx';
import { OtherFields } from './OtherFields.tsx';
import { Busy } from './Busy.tsx';

/**
 * A sale opened from the customer's history, as the service computed it: its lines and totals,
 * and its invoice to print when it has one; otherwise a plain-words reason why there is none.
 */
export function SaleDetail({
  view,
  number,
  onPrint,
  onUseCard,
}: {
  readonly view: SaleView;
  readonly number: string;
  readonly onPrint: (document: DocumentRef) => void;
  /** Opens a gift card the sale was paid with on the gift-card screen. */
  readonly onUseCard?: (giftCardId: string) => void;
}) {
  const { t, fmt } = useI18n();
  const { sale } = view;
  const notProvided = t('record.notProvided');
  const money = (amount: number | null) => (amount === null ? notProvided : fmt.money(amount));
  return (
    <div className="sale-detail" data-testid="sale-detail">
      <h4>{t('sale.title', { number })}</h4>
      {view.error && <ErrorNotice error={view.error} />}
      {!view.error && sale === null && <Busy>{t('common.loading')}</Busy>}
      {sale && (
        <>
          {sale.lines !== null && sale.lines.length > 0 && (
            <ul className="sale-lines" aria-label={t('sale.lines')}>
              {sale.lines.map((line, index) => (
                <li key={`${line.label}-${index}`}>
                  {t('sale.line', {
                    quantity: line.quantity === null ? '?' : fmt.integer(line.quantity),
                    label: line.label ?? notProvided,
                    total: money(line.total),
                  })}
                </li>
              ))}
            </ul>
          )}
          <p>
            {[
              t('sale.total', { amount: money(sale.total) }),
              sale.amountPaid === null ? null : t('sale.paid', { amount: money(sale.amountPaid) }),
              sale.remainingToPay !== null && sale.remainingToPay > 0
                ? t('sale.remaining', { amount: money(sale.remainingToPay) })
                : null,
            ]
              .filter(Boolean)
              .join(' · ')}
          </p>
          {sale.credits !== null && sale.credits.length > 0 && (
            <ul className="sale-credits" aria-label={t('sale.credits')} data-testid="sale-credits">
              {sale.credits.map((credit, index) => (
                <li key={`${credit.giftCardId ?? credit.type}-${index}`} className="history-entry">
                  <span>
                    {t('sale.credit', {
                      type: credit.giftCardId ? t('credit.giftCard') : (credit.type ?? notProvided),
                      amount: money(credit.amount),
                    })}
                  </span>
                  {/* Main names a card only for a gift card: a credit note has none to debit. */}
                  {onUseCard && credit.giftCardId && (
                    <button
                      type="button"
                      className="button"
                      aria-label={t('credit.useCardLabel', { label: t('credit.giftCard') })}
                      onClick={() => onUseCard(credit.giftCardId ?? '')}
                    >
                      {t('credit.useCard')}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
          {/* Not said by the service: offered, and the invoice route answers for itself. */}
          {sale.hasInvoice !== false ? (
            <button
              type="button"
              className="button button-primary"
              aria-label={t('history.printInvoiceOf', { number })}
              onClick={() => onPrint({ kind: 'invoice', reference: view.saleId, number })}
            >
              {t('history.printInvoice')}
            </button>
          ) : (
            <p className="notice notice-info" data-testid="sale-no-invoice">
              {t('sale.noInvoice')}
            </p>
          )}
          <OtherFields fields={sale.otherFields} />
        </>
      )}
    </div>
  );
}
