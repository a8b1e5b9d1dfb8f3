import { localeOfTag, type KioskSettings } from '../../shared/ipc/status.ts';

/** The languages the kiosk speaks: the same list as the kiosk settings. */
export type Locale = KioskSettings['locale'];

export const supportedLocales: readonly Locale[] = ['fr', 'en'];

/**
 * The browser's language (`fr-FR`, `fr-CA` → French) for the very first paint, before main's
 * settings (whose default is the system language) say which language the kiosk speaks; anything
 * the kiosk does not speak falls back to English, which every store's staff can be assumed to
 * read least badly of the two.
 */
export function localeFromLanguage(language: string | undefined): Locale {
  return localeOfTag(language);
}

/** The BCP 47 tag Intl gets: French formats as in France, English as in Ireland (EUR, 24 h). */
export function intlTagOf(locale: Locale): string {
  return locale === 'fr' ? 'fr-FR' : 'en-IE';
}
