import type { DebitConfirmation } from '../stores/debit-confirmation.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { Busy } from './Busy.tsx';

/**
 * The reply about a confirmed debit was lost: it may be stored already. Staff are told not to
 * debit again while main is asked about that same debit; no new debit form is offered.
 */
export function DebitMayBeStored({
  confirmation,
  checking,
  onCheck,
}: {
  readonly confirmation: DebitConfirmation;
  readonly checking: boolean;
  readonly onCheck: () => void;
}) {
  const { t, fmt } = useI18n();
  return (
    <div className="notice notice-warning" role="alert" data-testid="debit-may-be-stored">
      <p className="notice-title">
        {t('giftCard.mayBeStored', { amount: fmt.money(confirmation.amount) })}
      </p>
      <p className="notice-detail">{t('giftCard.mayBeStoredDetail')}</p>
      {checking ? (
        <Busy>{t('giftCard.checkingDebit')}</Busy>
      ) : (
        <button type="button" className="button" onClick={onCheck}>
          {t('giftCard.checkDebit')}
        </button>
      )}
    </div>
  );
}
