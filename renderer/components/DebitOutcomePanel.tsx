import type { DebitGiftCardReply, DebitView } from '../../shared/ipc/gift-cards.ts';
import { refusalText } from '../i18n/describe-error.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { useKiosk } from '../hooks/use-store.ts';
import { outcomeOf } from '../stores/debit-outcome.ts';
import { OfflineLimits } from './OfflineLimits.tsx';

/** Applied, refused (and why), stored offline (and the limits left), or still on its way. */
export function DebitOutcomePanel({
  debit,
  delivery,
}: {
  readonly debit: DebitView;
  readonly delivery: DebitGiftCardReply['delivery'] | null;
}) {
  const { t, fmt } = useI18n();
  const summary = useKiosk('outbox', (s) => s.summary);
  const outcome = outcomeOf(debit, delivery);
  const amount = fmt.money(debit.amount);
  const newBalance =
    debit.newBalance ?? (debit.reply?.kind === 'receipt' ? debit.reply.receipt.balance : null);

  const body = () => {
    switch (outcome) {
      case 'applied':
        return (
          <>
            <p className="outcome-title">{t('outcome.applied', { amount })}</p>
            {newBalance !== null && (
              <p>{t('outcome.newBalance', { balance: fmt.money(newBalance) })}</p>
            )}
          </>
        );
      case 'refused': {
        return (
          <>
            <p className="outcome-title">{t('outcome.refused', { amount })}</p>
            <p data-testid="refusal-reason">
              {debit.lastError ? refusalText(debit.lastError, t) : t('refusal.conflict')}
            </p>
            <p>{t('outcome.notDebited')}</p>
          </>
        );
      }
      case 'storedOffline':
        return (
          <>
            <p className="outcome-title">{t('outcome.storedOffline', { amount })}</p>
            {/* On demand: the outcome's line stays beside Débiter, in view (issue 37, 3). */}
            <details className="outcome-details">
              <summary>{t('banner.details')}</summary>
              <p>{t('outcome.storedOfflineDetail')}</p>
              {summary && <OfflineLimits summary={summary} />}
            </details>
          </>
        );
      case 'waiting':
        return <p className="outcome-title">{t('outcome.waiting', { amount })}</p>;
      case 'failed':
      case 'expired':
      case 'cancelled':
        return (
          <>
            <p className="outcome-title">{t(`outcome.${outcome}`, { amount })}</p>
            <p>{t('outcome.notDebited')}</p>
          </>
        );
    }
  };

  return (
    <div
      className={`outcome outcome-${outcome}`}
      role={outcome === 'refused' || outcome === 'storedOffline' ? 'alert' : 'status'}
      data-testid="debit-outcome"
      data-outcome={outcome}
    >
      {body()}
    </div>
  );
}
