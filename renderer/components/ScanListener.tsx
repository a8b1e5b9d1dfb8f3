import { useMemo, useState } from 'react';
import { useScanner } from '../hooks/use-scanner.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { defaultScanTiming } from '../input/scan-detector.ts';
import { routeOf } from '../input/scan-route.ts';
import { useKiosk } from '../hooks/use-store.ts';
import { useStores } from '../stores/stores-context.tsx';

/**
 * The scanner works from any screen: a product's EAN or reference opens the product, a card
 * opens on the gift-card screen, a receipt's sale, invoice or SAV number opens the document. A
 * burst that arrived broken up and cannot be trusted whole is said on screen, and nothing is
 * searched: staff scan again.
 */
export function ScanListener() {
  const { t } = useI18n();
  const { navigation, availability, giftCard, documents } = useStores();
  const [broken, setBroken] = useState(false);
  const maxGapMs = useKiosk(
    'setup',
    (s) => s.settings?.settings.scanMaxGapMs ?? defaultScanTiming.maxGapMs,
  );
  const timing = useMemo(() => ({ ...defaultScanTiming, maxGapMs }), [maxGapMs]);
  useScanner((outcome) => {
    setBroken(outcome.kind === 'broken');
    if (outcome.kind === 'broken') return;
    const route = routeOf(outcome.code, navigation.getState().screen);
    switch (route.to) {
      case 'product':
        navigation.getState().go('availability');
        void availability.getState().scanProduct(route.code);
        return;
      case 'giftCard':
        navigation.getState().go('giftCard');
        giftCard.getState().setCardId(route.code);
        void giftCard.getState().lookup();
        return;
      case 'document':
        navigation.getState().go('documents');
        void documents.getState().find(route.code);
        return;
    }
  }, timing);
  if (!broken) return null;
  // The code itself is not shown: half a code read aloud invites typing it in.
  return (
    <div className="notice notice-warning scan-broken" role="alert" data-testid="scan-broken">
      <p>{t('scan.broken')}</p>
      <button type="button" className="button" onClick={() => setBroken(false)}>
        {t('scan.brokenDismiss')}
      </button>
    </div>
  );
}
