import { Wifi, WifiLow, WifiOff } from 'lucide-react';
import type { MessageKey } from '../i18n/catalogue.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { useKiosk } from '../hooks/use-store.ts';
import { useStores } from '../stores/stores-context.tsx';

const labels: Readonly<Record<'online' | 'degraded' | 'offline', MessageKey>> = {
  online: 'connectivity.online',
  degraded: 'connectivity.degraded',
  offline: 'connectivity.offline',
};

const icons = { online: Wifi, degraded: WifiLow, offline: WifiOff } as const;

function Icon({ of }: { readonly of: keyof typeof icons }) {
  const Drawn = icons[of];
  return <Drawn aria-hidden="true" size={18} strokeWidth={2.5} className="pill-icon" />;
}

/** Online, degraded or offline as main sees the service, and a way to check again now. */
export function ConnectivityIndicator() {
  const { t } = useI18n();
  const connectivity = useKiosk('connectivity', (s) => s.connectivity);
  const { connectivity: store } = useStores();
  return (
    <div className="status-item">
      <span
        className={`pill pill-${connectivity ?? 'unknown'}`}
        role="status"
        data-testid="connectivity"
        data-state={connectivity ?? 'unknown'}
      >
        {connectivity ? <Icon of={connectivity} /> : <span aria-hidden="true">…</span>}{' '}
        {t(connectivity ? labels[connectivity] : 'connectivity.unknown')}
      </span>
      <button
        type="button"
        className="button button-small"
        onClick={() => void store.getState().check()}
      >
        {t('connectivity.check')}
      </button>
    </div>
  );
}
