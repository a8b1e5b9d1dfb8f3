import { useI18n } from '../i18n/use-i18n.ts';
import type { SaleView } from '../stores/customer-store.ts';
import type { DocumentRef } from '../stores/document-store.ts';
import { ErrorNotice } from './ErrorNotice.tsx';

/**
 * A sale opened from the customer's history, as the service computed it: its lines and totals,
 * and its invoice to print when it has one; otherwise a plain-words reason why there is none.
 */
export function SaleDetail({
  view,
  number,
  onPrint,
}: {
  readonly view: SaleView;
  readonly number: string;
  readonly onPrint: (document: DocumentRef) => void;
}) {
  const { t, fmt } = useI18n();
  const { sale } = view;
  return (
    <div className="sale-detail" data-testid="sale-detail">
      <h4>{t('sale.title', { number })}</h4>
      {view.error && <ErrorNotice error={view.error} />}
      {!view.error && sale === null && <p role="status">{t('common.loading')}</p>}
      {sale && (
        <>
          {sale.lines.length > 0 && (
            <ul className="sale-lines" aria-label={t('sale.lines')}>
              {sale.lines.map((line, index) => (
                <li key={`${line.label}-${index}`}>
                  {t('sale.line', {
                    quantity: fmt.integer(line.quantity),
                    label: line.label,
                    total: fmt.money(line.totalInclTax),
                  })}
                </li>
              ))}
            </ul>
          )}
          <p>
            {[
              t('sale.total', { amount: fmt.money(sale.totals.inclTax) }),
              t('sale.paid', { amount: fmt.money(sale.amountPaid) }),
              sale.remainingToPay > 0
                ? t('sale.remaining', { amount: fmt.money(sale.remainingToPay) })
                : null,
            ]
              .filter(Boolean)
              .join(' · ')}
          </p>
          {sale.hasInvoice ? (
            <button
              type="button"
              className="button button-primary"
              aria-label={t('history.printInvoiceOf', { number })}
              onClick={() => onPrint({ kind: 'invoice', reference: sale.uuid, number })}
            >
              {t('history.printInvoice')}
            </button>
          ) : (
            <p className="notice notice-info" data-testid="sale-no-invoice">
              {t('sale.noInvoice')}
            </p>
          )}
        </>
      )}
    </div>
  );
}
