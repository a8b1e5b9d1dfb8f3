import { useI18n } from '../i18n/use-i18n.ts';
import { Busy } from './Busy.tsx';

/**
 * The debit on screen is stored and the service has not answered yet: no other debit of this card
 * is offered until its outcome is on screen, and staff may ask main about it now.
 */
export function DebitAwaitingOutcome({
  checking,
  onCheck,
}: {
  readonly checking: boolean;
  readonly onCheck: () => void;
}) {
  const { t } = useI18n();
  return (
    <div className="notice notice-info" data-testid="debit-awaiting-outcome">
      <p>{t('giftCard.outcomeFirst')}</p>
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
