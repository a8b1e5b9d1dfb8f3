import { TriangleAlert } from 'lucide-react';
import { useI18n } from '../i18n/use-i18n.ts';
import { useKiosk } from '../hooks/use-store.ts';

/**
 * How fresh the local catalogue is: the service time it reflects, or that it is updating (never
 * while offline, when no update can be under way).
 */
export function CatalogAsOf() {
  const { t, fmt } = useI18n();
  const status = useKiosk('catalogStatus', (s) => s.status);
  const syncing = useKiosk('catalogStatus', (s) => s.syncing);
  const failure = useKiosk('catalogStatus', (s) => s.failure);
  // A sync cannot progress without the service: offline, the mirror's age is what matters.
  const offline = useKiosk('connectivity', (s) => s.connectivity === 'offline');

  let text: string;
  if (syncing && !offline) text = t('catalog.syncing');
  else if (!status) text = t('catalog.unknown');
  else if (status.access.mode === 'live') text = t('catalog.live');
  else if (status.asOf) text = t('catalog.asOf', { time: fmt.dateTime(status.asOf) });
  else text = t('catalog.notReady');

  return (
    <span
      className={failure ? 'status-item status-warning' : 'status-item'}
      data-testid="catalog-as-of"
    >
      {failure && <TriangleAlert aria-hidden="true" size={18} className="status-icon" />}
      {text}
    </span>
  );
}
