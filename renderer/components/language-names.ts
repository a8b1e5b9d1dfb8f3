import type { Locale } from '../i18n/locale.ts';

/** Each language named in itself, so staff find theirs whatever language the screen is in. */
export const languageNames: Readonly<Record<Locale, string>> = { fr: 'Français', en: 'English' };
