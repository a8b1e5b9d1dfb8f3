import { createStore, type StoreApi } from 'zustand/vanilla';
import type { KioskApi } from '../../shared/ipc/contract.ts';
import type { IpcError } from '../../shared/ipc/errors.ts';
import type { ConnectivityChanged } from '../../shared/ipc/events.ts';
import type { ConnectivityState as Connectivity } from '../../shared/ipc/gift-cards.ts';
import type { KioskStatus } from '../../shared/ipc/status.ts';
import { settle } from './call.ts';

export interface ConnectivityState {
  /** Null until main answered once. */
  readonly status: KioskStatus | null;
  readonly connectivity: Connectivity | null;
  readonly lastChange: ConnectivityChanged | null;
  readonly error: IpcError | null;
  load(): Promise<void>;
  /** Ask main to probe the service now (the staff's "check again"). */
  check(): Promise<void>;
  applyEvent(event: ConnectivityChanged): void;
}

export type ConnectivityStore = StoreApi<ConnectivityState>;

export function createConnectivityStore(api: KioskApi): ConnectivityStore {
  return createStore<ConnectivityState>()((set) => ({
    status: null,
    connectivity: null,
    lastChange: null,
    error: null,
    load: async () => {
      const reply = await settle(api.getStatus());
      if (reply.ok)
        set({ status: reply.value, connectivity: reply.value.connectivity, error: null });
      else set({ error: reply.error });
    },
    check: async () => {
      const reply = await settle(api.checkConnectivity());
      if (reply.ok) set({ connectivity: reply.value.connectivity, error: null });
      else set({ error: reply.error });
    },
    applyEvent: (event) => set({ connectivity: event.to, lastChange: event }),
  }));
}
