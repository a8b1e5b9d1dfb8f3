import { createStore, type StoreApi } from 'zustand/vanilla';

export const screens = ['availability', 'customers', 'giftCard', 'documents', 'setup'] as const;
export type ScreenName = (typeof screens)[number];

export interface NavigationState {
  readonly screen: ScreenName;
  go(screen: ScreenName): void;
}

export type NavigationStore = StoreApi<NavigationState>;

export function createNavigationStore(initial: ScreenName = 'availability'): NavigationStore {
  return createStore<NavigationState>()((set) => ({
    screen: initial,
    go: (screen) => set({ screen }),
  }));
}
