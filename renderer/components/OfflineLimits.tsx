import type { OutboxSummaryReply } from '../../shared/ipc/gift-cards.ts';
import { useI18n } from '../i18n/use-i18n.ts';

/**
 * The offline limits next to what is already waiting, both as main reports them: staff see how
 * much room is left before the kiosk refuses further offline debits.
 */
export function OfflineLimits({ summary }: { readonly summary: OutboxSummaryReply }) {
  const { t, fmt } = useI18n();
  const { limits } = summary;
  return (
    <ul className="limits" aria-label={t('limits.title')} data-testid="offline-limits">
      <li>{t('limits.perDebit', { max: fmt.money(limits.maxOfflineDebitAmount) })}</li>
      <li>
        {t('limits.pendingAmount', {
          pending: fmt.money(summary.pendingAmount),
          max: fmt.money(limits.maxPendingAmount),
        })}
      </li>
      <li>
        {t('limits.pendingCount', {
          pending: fmt.integer(summary.pendingCount),
          max: fmt.integer(limits.maxPendingCount),
        })}
      </li>
      <li>{t('limits.perCard', { max: fmt.money(limits.maxPendingAmountPerCard) })}</li>
      <li>{t('limits.maxAge', { age: fmt.duration(limits.maxAgeMs) })}</li>
    </ul>
  );
}
