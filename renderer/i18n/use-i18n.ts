import { useStore } from 'zustand';
import { useStores } from '../stores/stores-context.tsx';
import type { Catalogue } from './catalogue.ts';
import { en } from './en.ts';
import { createFormatters, type Formatters } from './formatters.ts';
import { fr } from './fr.ts';
import type { Locale } from './locale.ts';
import { createTranslate, type Translate } from './translate.ts';

export const catalogues: Readonly<Record<Locale, Catalogue>> = { en, fr };

export interface I18n {
  readonly locale: Locale;
  readonly t: Translate;
  readonly fmt: Formatters;
}

const cache = new Map<Locale, I18n>();

/**
 * One set per language for the whole page: Intl formatters are costly to build, and a list
 * mounting fifteen rows a frame must not build them fifteen times.
 */
export function i18nFor(locale: Locale): I18n {
  let i18n = cache.get(locale);
  if (!i18n) {
    i18n = { locale, t: createTranslate(catalogues[locale]), fmt: createFormatters(locale) };
    cache.set(locale, i18n);
  }
  return i18n;
}

/** The chosen language's messages and formatters; components re-render when it changes. */
export function useI18n(): I18n {
  return i18nFor(useStore(useStores().locale, (state) => state.locale));
}
