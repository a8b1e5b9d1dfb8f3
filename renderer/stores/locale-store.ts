import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Locale } from '../i18n/locale.ts';

export interface LocaleState {
  readonly locale: Locale;
  setLocale(locale: Locale): void;
}

export type LocaleStore = StoreApi<LocaleState>;

export function createLocaleStore(initial: Locale): LocaleStore {
  return createStore<LocaleState>()((set) => ({
    locale: initial,
    setLocale: (locale) => set({ locale }),
  }));
}
