import { describe, expect, it } from 'vitest';
import { routeOf } from '../../../renderer/input/scan-route.ts';

describe('where a scan goes', () => {
  it('receipt numbers open the document from any screen', () => {
    for (const code of ['V-2026-000123', 'F-2026-000610', 'SAV-2026-0042', 'sav-2026-0042'])
      expect(routeOf(code, 'giftCard')).toEqual({ to: 'document', code });
  });

  it('on the gift-card screen a code is a card; elsewhere a product, unless the service’s card prefix', () => {
    expect(routeOf('9088123412341234', 'giftCard')).toEqual({
      to: 'giftCard',
      code: '9088123412341234',
    });
    expect(routeOf('3760123456789', 'customers')).toEqual({ to: 'product', code: '3760123456789' });
    expect(routeOf('VH69853FR', 'availability')).toEqual({ to: 'product', code: 'VH69853FR' });
    expect(routeOf('gift_card_ddf0db2b', 'documents')).toEqual({
      to: 'giftCard',
      code: 'gift_card_ddf0db2b',
    });
  });
});
