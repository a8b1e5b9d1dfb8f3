import { useMemo } from 'react';
import { useScanner } from '../hooks/use-scanner.ts';
import { defaultScanTiming } from '../input/scan-detector.ts';
import { routeOf } from '../input/scan-route.ts';
import { useKiosk } from '../hooks/use-store.ts';
import { useStores } from '../stores/stores-context.tsx';

/**
 * The scanner works from any screen: a product's EAN or reference opens the product, a card
 * opens on the gift-card screen, a receipt's sale, invoice or SAV number opens the document.
 */
export function ScanListener() {
  const { navigation, availability, giftCard, documents } = useStores();
  const maxGapMs = useKiosk(
    'setup',
    (s) => s.settings?.settings.scanMaxGapMs ?? defaultScanTiming.maxGapMs,
  );
  const timing = useMemo(() => ({ ...defaultScanTiming, maxGapMs }), [maxGapMs]);
  useScanner((code) => {
    const route = routeOf(code, navigation.getState().screen);
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
  return null;
}
