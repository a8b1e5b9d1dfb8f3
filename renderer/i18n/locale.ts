import type { KioskSettings } from '../../shared/ipc/status.ts';

/** The languages the kiosk speaks: the same list as the kiosk settings. */
export type Locale = KioskSettings['locale'];

export const supportedLocales: readonly Locale[] = ['fr', 'en'];

/**
 * The system language decides the first screen (`fr-FR`, `fr-CA` → French); anything the kiosk
 * does not speak falls back to English, which every store's staff can be assumed to read least
 * badly of the two.
 */
export function localeFromLanguage(language: string | undefined): Locale {
  const primary = language?.toLowerCase().split(/[-_]/)[0];
  return supportedLocales.find((locale) => locale === primary) ?? 'en';
}

/** The BCP 47 tag Intl gets: French formats as in France, English as in Ireland (EUR, 24 h). */
export function intlTagOf(locale: Locale): string {
  return locale === 'fr' ? 'fr-FR' : 'en-IE';
}
