import { useI18n } from '../i18n/use-i18n.ts';
import { useKiosk } from '../hooks/use-store.ts';

/**
 * Says it plainly when the service is unreachable or struggling: what still works, what does not,
 * and the debits this kiosk holds until it can send them.
 */
export function OfflineBanner() {
  const { t, fmt } = useI18n();
  const connectivity = useKiosk('connectivity', (s) => s.connectivity);
  const open = useKiosk('outbox', (s) => s.open);
  const summary = useKiosk('outbox', (s) => s.summary);

  const held = open.filter((debit) => debit.acceptedOffline || debit.lastError !== null);
  if (connectivity !== 'offline' && connectivity !== 'degraded' && held.length === 0) return null;

  // One line, so the screen's main action stays in view; the details on demand.
  return (
    <section
      className={connectivity === 'offline' ? 'banner banner-offline' : 'banner banner-degraded'}
      aria-label={t('offline.bannerLabel')}
      data-testid="offline-banner"
    >
      <div className="banner-line">
        {connectivity === 'offline' && <p className="banner-title">{t('offline.title')}</p>}
        {connectivity === 'degraded' && <p className="banner-title">{t('degraded.title')}</p>}
        {held.length > 0 && summary && (
          <p className="banner-debits" role="status">
            {t('offline.heldDebits', {
              count: fmt.integer(summary.pendingCount),
              amount: fmt.money(summary.pendingAmount),
            })}
          </p>
        )}
        {connectivity === 'offline' && (
          <details className="banner-details">
            <summary>{t('offline.details')}</summary>
            <p>{t('offline.stillWorks')}</p>
            <p>{t('offline.unavailable')}</p>
          </details>
        )}
      </div>
    </section>
  );
}
