import { useStore, type ExtractState } from 'zustand';
import { useStores } from '../stores/stores-context.tsx';
import type { KioskStores } from '../stores/kiosk-stores.ts';

/**
 * One slice of one store: `useKiosk('outbox', (s) => s.summary)`. The selector must return a
 * value that is stable between renders (a field, not a new object).
 */
export function useKiosk<K extends keyof KioskStores, T>(
  name: K,
  selector: (state: ExtractState<KioskStores[K]>) => T,
): T {
  return useStore(useStores()[name], selector);
}
