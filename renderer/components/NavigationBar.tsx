import { FileText, Gift, type LucideIcon, PackageSearch, Settings, Users } from 'lucide-react';
import type { MessageKey } from '../i18n/catalogue.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { useKiosk } from '../hooks/use-store.ts';
import { screens, type ScreenName } from '../stores/navigation-store.ts';
import { useStores } from '../stores/stores-context.tsx';

const labels: Readonly<Record<ScreenName, MessageKey>> = {
  availability: 'nav.availability',
  customers: 'nav.customers',
  giftCard: 'nav.giftCard',
  documents: 'nav.documents',
  setup: 'nav.setup',
};

const icons: Readonly<Record<ScreenName, LucideIcon>> = {
  availability: PackageSearch,
  customers: Users,
  giftCard: Gift,
  documents: FileText,
  setup: Settings,
};

function Icon({ of }: { readonly of: ScreenName }) {
  const Drawn = icons[of];
  return <Drawn className="nav-symbol" aria-hidden="true" size={32} strokeWidth={2} />;
}

/** The screens, as big buttons: at the side in landscape, along the bottom in portrait. */
export function NavigationBar() {
  const { t } = useI18n();
  const current = useKiosk('navigation', (s) => s.screen);
  const { navigation } = useStores();
  return (
    <nav className="navigation" aria-label={t('nav.label')}>
      {screens.map((screen) => (
        <button
          key={screen}
          type="button"
          className="nav-button"
          aria-current={screen === current ? 'page' : undefined}
          onClick={() => navigation.getState().go(screen)}
        >
          <Icon of={screen} />
          <span>{t(labels[screen])}</span>
        </button>
      ))}
    </nav>
  );
}
