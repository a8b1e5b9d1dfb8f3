import { refusalKeys, refusalText, serviceExplanation } from '../i18n/describe-error.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { useKiosk } from '../hooks/use-store.ts';
import { cardLabel, saleLabel } from './debit-labels.ts';
import { ErrorNotice } from './ErrorNotice.tsx';
import { ResolutionActions } from './ResolutionActions.tsx';

/**
 * A debit refused, failed or expired once the customer had left is money not collected. It stays
 * in red above every screen until staff record what they did: collected another way (and how),
 * or could not collect. One at a time, oldest first, so each gets a decision.
 */
export function AfterTheFactAlert() {
  const { t, fmt } = useI18n();
  const attention = useKiosk('outbox', (s) => s.attention);
  const error = useKiosk('outbox', (s) => s.error);

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
          : t('afterTheFact.reasonUnknown');
  const amount = fmt.money(debit.amount);

  return (
    <section
      className="banner banner-offline after-the-fact"
      role="alert"
      aria-label={t('afterTheFact.label')}
      data-testid="after-the-fact-alert"
      data-debit-id={debit.id}
    >
      <p className="banner-title">{t('afterTheFact.title', { amount })}</p>
      <p>
        {t('afterTheFact.facts', {
          card: cardLabel(debit, t),
          reference: saleLabel(debit, t),
          time: fmt.dateTime(debit.createdAt),
        })}
      </p>
      <p>{t('afterTheFact.reason', { reason })}</p>
      {attention.length > 1 && (
        <p>{t('afterTheFact.more', { count: fmt.integer(attention.length - 1) })}</p>
      )}
      {/* Keyed by debit: the next one starts from the default method, not this one's choice. */}
      <ResolutionActions key={debit.id} debit={debit} />
      {error && <ErrorNotice error={error} />}
    </section>
  );
}
