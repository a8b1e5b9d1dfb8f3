import { createContext, useContext, type ReactNode } from 'react';
import type { KioskStores } from './kiosk-stores.ts';

const StoresContext = createContext<KioskStores | null>(null);

export function StoresProvider({
  stores,
  children,
}: {
  readonly stores: KioskStores;
  readonly children: ReactNode;
}) {
  return <StoresContext value={stores}>{children}</StoresContext>;
}

export function useStores(): KioskStores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('useStores() outside <StoresProvider>');
  return stores;
}
