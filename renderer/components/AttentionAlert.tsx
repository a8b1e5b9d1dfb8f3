import { refusalKeys, refusalText, serviceExplanation } from '../i18n/describe-error.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { useKiosk } from '../hooks/use-store.ts';
import { cardLabel, saleLabel } from './debit-labels.ts';
import { ErrorNotice } from './ErrorNotice.tsx';
import { ResolutionActions } from './ResolutionActions.tsx';

/**
 * A debit refused, failed or expired once the customer had left is money not collected. It stays
 * in red above every screen until staff record what they did: collected another way (and how),
 * or could not collect. One at a time, oldest first, so each gets a decision. One line, its facts
 * and the decision under 'Details', so that each screen's main action stays in view under it.
 * A debit refused in front of the customer is the gift-card screen's outcome, not this alert: main
 * takes it as seen, and until the alerts are read again the screen showing it keeps it out of
 * here (issue 37, 5).
 */
export function AttentionAlert() {
  const { t, fmt } = useI18n();
  const all = useKiosk('outbox', (s) => s.attention);
  const error = useKiosk('outbox', (s) => s.error);
  const onScreen = useKiosk('navigation', (s) => s.screen);
  // Never stored offline: its answer came while the customer was there (one stored offline and
  // refused later is after the fact, card on screen or not).
  const shown = useKiosk('giftCard', (s) =>
    s.debit && !s.debit.acceptedOffline ? s.debit.id : null,
  );
  const attention = onScreen === 'giftCard' ? all.filter((debit) => debit.id !== shown) : all;

  const debit = attention[0];
  if (!debit) return null;
  const reasonKey = debit.lastError ? refusalKeys()[debit.lastError.code] : undefined;
  // A refusal is the service's: its words for the code, then its own explanation.
  const reason =
    debit.lastError && debit.state === 'refused'
      ? refusalText(debit.lastError, t)
      : reasonKey
        ? t(reasonKey)
        : debit.lastError
          ? (serviceExplanation(debit.lastError) ?? debit.lastError.code)
          : t('attention.reasonUnknown');
  const amount = fmt.money(debit.amount);

  return (
    <section
      className="banner banner-offline attention-alert"
      role="alert"
      aria-label={t('attention.label')}
      data-testid="attention-alert"
      data-debit-id={debit.id}
    >
      <div className="banner-line">
        <p className="banner-title">{t('attention.title', { amount })}</p>
        {attention.length > 1 && (
          <p>{t('attention.more', { count: fmt.integer(attention.length - 1) })}</p>
        )}
        {/* Keyed by debit: the next one opens closed, with the default method. */}
        <details key={debit.id} className="banner-details" data-testid="attention-details">
          <summary>{t('banner.details')}</summary>
          <p>
            {t('attention.facts', {
              card: cardLabel(debit, t),
              reference: saleLabel(debit, t),
              time: fmt.dateTime(debit.createdAt),
            })}
          </p>
          <p>{t('attention.reason', { reason })}</p>
          <ResolutionActions debit={debit} />
        </details>
      </div>
      {error && <ErrorNotice error={error} />}
    </section>
  );
}
