import { useEffect } from 'react';
import { AttentionAlert } from './components/AttentionAlert.tsx';
import { IdleReturn } from './components/IdleReturn.tsx';
import { OnScreenKeyboard } from './components/OnScreenKeyboard.tsx';
import { ScanListener } from './components/ScanListener.tsx';
import { NavigationBar } from './components/NavigationBar.tsx';
import { OfflineBanner } from './components/OfflineBanner.tsx';
import { StatusBar } from './components/StatusBar.tsx';
import { useKiosk } from './hooks/use-store.ts';
import { useI18n } from './i18n/use-i18n.ts';
import { AvailabilityScreen } from './screens/AvailabilityScreen.tsx';
import { CustomersScreen } from './screens/CustomersScreen.tsx';
import { DocumentsScreen } from './screens/DocumentsScreen.tsx';
import { GiftCardScreen } from './screens/GiftCardScreen.tsx';
import { SetupScreen } from './screens/SetupScreen.tsx';

function CurrentScreen() {
  const screen = useKiosk('navigation', (s) => s.screen);
  switch (screen) {
    case 'availability':
      return <AvailabilityScreen />;
    case 'customers':
      return <CustomersScreen />;
    case 'giftCard':
      return <GiftCardScreen />;
    case 'documents':
      return <DocumentsScreen />;
    case 'setup':
      return <SetupScreen />;
  }
}

/** The kiosk: status bar always on top, the screens beside (or above) the navigation. */
export function App() {
  const { t, locale } = useI18n();
  useEffect(() => {
    // Screen readers and hyphenation follow the page's language.
    document.documentElement.lang = locale;
    document.title = t('app.title');
  }, [locale, t]);
  return (
    <div className="kiosk">
      <StatusBar />
      <OfflineBanner />
      <AttentionAlert />
      <IdleReturn />
      <ScanListener />
      <OnScreenKeyboard />
      <div className="kiosk-body">
        <NavigationBar />
        <main className="kiosk-main">
          <CurrentScreen />
        </main>
      </div>
    </div>
  );
}
