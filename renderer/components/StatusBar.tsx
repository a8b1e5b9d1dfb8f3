import { useI18n } from '../i18n/use-i18n.ts';
import { useKiosk } from '../hooks/use-store.ts';
import { CatalogAsOf } from './CatalogAsOf.tsx';
import { ConnectivityIndicator } from './ConnectivityIndicator.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { OutboxIndicator } from './OutboxIndicator.tsx';
import { PrinterIndicator } from './PrinterIndicator.tsx';

/** Always on screen: is the service there, is this demo data, what is waiting, what is stale. */
export function StatusBar() {
  const { t } = useI18n();
  const demo = useKiosk('connectivity', (s) => s.status?.demo ?? false);
  return (
    <header className="status-bar">
      <span className="app-name">{t('app.title')}</span>
      {demo && (
        <span className="badge badge-demo" data-testid="demo-badge">
          {t('status.demo')}
          <span className="visually-hidden"> {t('status.demoHint')}</span>
        </span>
      )}
      <ConnectivityIndicator />
      <OutboxIndicator />
      <CatalogAsOf />
      <PrinterIndicator />
      <LanguageSwitch />
    </header>
  );
}
