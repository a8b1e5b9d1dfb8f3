import { TriangleAlert } from 'lucide-react';
import { HeldDebitCode } from '../../shared/ipc/gift-cards.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { useNow } from '../hooks/use-now.ts';
import { useKiosk } from '../hooks/use-store.ts';
import { useStores } from '../stores/stores-context.tsx';

/**
 * Gift-card debits not yet confirmed by the service: count, amount and the oldest one's age, as
 * main computed them (the age keeps counting from main's figure). A warning when any debit needs
 * a person. Tapping it opens the gift-card screen, where the list is.
 */
export function OutboxIndicator() {
  const { t, fmt } = useI18n();
  const summary = useKiosk('outbox', (s) => s.summary);
  const readAt = useKiosk('outbox', (s) => s.summaryReadAt);
  const paused = useKiosk('outbox', (s) => s.senderPaused);
  const now = useNow(15_000);
  const { navigation } = useStores();

  if (!summary) return null;
  // Open debits: those being sent are among them (counting them again showed '2' for one).
  const waiting = summary.pendingCount;
  const attention = summary.needingAttention.total;
  const warn = attention > 0 || paused !== null;
  const age =
    summary.oldestPendingAgeMs === null
      ? null
      : summary.oldestPendingAgeMs + Math.max(0, now - (readAt ?? now));

  return (
    <button
      type="button"
      className={warn ? 'status-item status-button status-warning' : 'status-item status-button'}
      data-testid="outbox-indicator"
      onClick={() => navigation.getState().go('giftCard')}
    >
      {warn && <TriangleAlert aria-hidden="true" size={18} className="status-icon" />}
      {waiting === 0
        ? t('outbox.none')
        : t('outbox.pending', {
            count: fmt.integer(waiting),
            amount: fmt.money(summary.pendingAmount),
          })}
      {age !== null && waiting > 0 && <> · {t('outbox.oldest', { age: fmt.duration(age) })}</>}
      {attention > 0 && <> · {t('outbox.attention', { count: fmt.integer(attention) })}</>}
      {paused && (
        <>
          {' · '}
          {t(HeldDebitCode.safeParse(paused.code).success ? 'outbox.pausedHeld' : 'outbox.paused')}
        </>
      )}
    </button>
  );
}
