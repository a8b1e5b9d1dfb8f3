import { expect, test } from 'vitest';
import { en } from '../../../renderer/i18n/en.ts';
import { fr } from '../../../renderer/i18n/fr.ts';
import { createFormatters } from '../../../renderer/i18n/formatters.ts';
import { localeFromLanguage } from '../../../renderer/i18n/locale.ts';
import { createTranslate } from '../../../renderer/i18n/translate.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('French and English have the same keys, each with the same placeholders', () => {
  // The typecheck already refuses a missing key; this also catches a renamed placeholder.
  expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort());
  for (const key of Object.keys(en) as (keyof typeof en)[]) {
    expect(placeholders(fr[key]), key).toEqual(placeholders(en[key]));
    expect(fr[key].trim(), key).not.toBe('');
  }
});

test('the system language picks the catalogue, English for anything else', () => {
  expect(localeFromLanguage('fr-FR')).toBe('fr');
  expect(localeFromLanguage('fr_CA')).toBe('fr');
  expect(localeFromLanguage('FR')).toBe('fr');
  expect(localeFromLanguage('en-US')).toBe('en');
  expect(localeFromLanguage('de-DE')).toBe('en');
  expect(localeFromLanguage(undefined)).toBe('en');
});

test('placeholders are filled, and a missing value stays visible', () => {
  const t = createTranslate(en);
  expect(t('outbox.pending', { count: '2', amount: '€20.00' })).toBe('Debits waiting: 2 (€20.00)');
  expect(t('outbox.pending', { count: '2' })).toBe('Debits waiting: 2 ({amount})');
});

test('amounts and dates are formatted in the chosen language, never changed', () => {
  const french = createFormatters('fr');
  const english = createFormatters('en');
  // Intl puts narrow no-break spaces in French amounts; compare with plain spaces.
  const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');
  expect(plain(french.money(1234.5))).toBe('1 234,50 €');
  expect(english.money(1234.5)).toBe('€1,234.50');
  expect(french.money(0.1 + 0.2)).toContain('0,30');
  expect(french.date('2027-01-31')).toBe('31 janv. 2027');
  expect(english.date('2027-01-31')).toBe('31 Jan 2027');
  expect(english.date('not a date')).toBe('not a date');
  expect(english.duration(90_000)).toBe('1 min');
  expect(english.duration(3 * 86_400_000)).toBe('3 days');
});
