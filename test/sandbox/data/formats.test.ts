import { describe, expect, test } from 'vitest';
import { ean13CheckDigit, ean13ForSerial, isValidEan13 } from '../../../sandbox/data/ean.ts';
import { exclTaxCents, priceFromCents, retailCents } from '../../../sandbox/data/money.ts';
import { Random } from '../../../sandbox/data/random.ts';
import { dateOnly, iso } from '../../../sandbox/data/time.ts';

describe('EAN-13', () => {
  test('check digits of known barcodes', () => {
    expect(ean13CheckDigit('400638133393')).toBe(1); // 4006381333931
    expect(isValidEan13('4006381333931')).toBe(true);
    expect(isValidEan13('3017620422003')).toBe(true);
    expect(isValidEan13('3017620422004')).toBe(false);
    expect(isValidEan13('301762042200')).toBe(false);
  });

  test('seeded codes are valid, French-prefixed and unique', () => {
    const codes = Array.from({ length: 20_000 }, (_, i) => ean13ForSerial(i + 1));
    expect(codes.every(isValidEan13)).toBe(true);
    expect(codes.every((code) => code.startsWith('376'))).toBe(true);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe('money', () => {
  test('tax-exclusive part and prices stay consistent to the cent', () => {
    expect(exclTaxCents(12000)).toBe(10000);
    expect(exclTaxCents(5000, 0)).toBe(5000);
    expect(priceFromCents(37399)).toEqual({ inclTax: 373.99, exclTax: 311.66, currency: 'EUR' });
    expect(retailCents(549.4)).toBe(54899);
    expect(retailCents(549.4, 90)).toBe(54890);
    expect(retailCents(549.4, 0)).toBe(54900);
  });
});

describe('timestamps', () => {
  test('iso and dateOnly match Date#toISOString', () => {
    const random = new Random(1);
    const samples = [
      0,
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(2000, 0, 1),
      Date.UTC(2100, 11, 31, 12),
    ];
    for (let i = 0; i < 2000; i++) samples.push(Math.floor(random.next() * Date.UTC(2200, 0, 1)));
    for (const ms of samples) {
      expect(iso(ms)).toBe(new Date(ms).toISOString());
      expect(dateOnly(ms)).toBe(new Date(ms).toISOString().slice(0, 10));
    }
  });
});
