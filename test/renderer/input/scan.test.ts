import { describe, expect, it } from 'vitest';
import { ScanDetector } from '../../../renderer/input/scan-detector.ts';
import { routeOf } from '../../../renderer/input/scan-route.ts';

/** Feeds characters `gap` ms apart from `start`, then Enter `gap` ms after the last. */
function type(detector: ScanDetector, text: string, gap: number, start = 1_000): string | null {
  let at = start;
  for (const char of text) {
    detector.character(char, at);
    at += gap;
  }
  return detector.enter(at);
}

describe('telling a scanner from a person', () => {
  it('a burst 5 ms apart ended by Enter is a scan', () => {
    expect(type(new ScanDetector(), '3760123456789', 5)).toBe('3760123456789');
  });

  it('typing 80 ms apart is a person, whatever its length', () => {
    expect(type(new ScanDetector(), '3760123456789', 80)).toBeNull();
  });

  it('a short burst is a key pressed twice, not a code', () => {
    expect(type(new ScanDetector({ maxGapMs: 40, minLength: 4 }), '12', 5)).toBeNull();
  });

  it('a pause before the burst starts a new one: what a person typed first is not part of it', () => {
    const detector = new ScanDetector();
    detector.character('x', 0);
    expect(type(detector, 'V-2026-000123', 5, 500)).toBe('V-2026-000123');
  });

  it('Enter long after the last character is a person confirming, not a scan', () => {
    const detector = new ScanDetector();
    for (const [i, char] of [...'12345678'].entries()) detector.character(char, i * 5);
    expect(detector.enter(35 + 500)).toBeNull();
  });

  it('the timing is configurable: a slow scanner at 60 ms', () => {
    expect(type(new ScanDetector({ maxGapMs: 80, minLength: 4 }), '12345678', 60)).toBe('12345678');
  });
});

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
