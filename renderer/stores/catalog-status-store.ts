import { createStore, type StoreApi } from 'zustand/vanilla';
import type { CatalogStatus, SyncProgress } from '../../shared/ipc/catalog.ts';
import type { KioskApi } from '../../shared/ipc/contract.ts';
import type { IpcError } from '../../shared/ipc/errors.ts';
import type { SyncEvent } from '../../shared/ipc/events.ts';
import { settle } from './call.ts';

export interface CatalogStatusState {
  readonly status: CatalogStatus | null;
  readonly syncing: SyncProgress | null;
  /** The last synchronisation failure pushed by main (cleared by the next success). */
  readonly failure: Extract<SyncEvent, { type: 'failed' }> | null;
  readonly error: IpcError | null;
  load(): Promise<void>;
  applyEvent(event: SyncEvent): void;
}

export type CatalogStatusStore = StoreApi<CatalogStatusState>;

export function createCatalogStatusStore(api: KioskApi): CatalogStatusStore {
  return createStore<CatalogStatusState>()((set, get) => ({
    status: null,
    syncing: null,
    failure: null,
    error: null,
    load: async () => {
      const reply = await settle(api.getSyncStatus());
      if (reply.ok) set({ status: reply.value, syncing: reply.value.syncing, error: null });
      else set({ error: reply.error });
    },
    applyEvent: (event) => {
      switch (event.type) {
        case 'progress':
          set({ syncing: event.progress });
          break;
        case 'synced':
          // The event does not carry the new as-of time: main's status is the one to show.
          set({ syncing: null, failure: null });
          void get().load();
          break;
        case 'failed':
          set({ syncing: null, failure: event });
          break;
      }
    },
  }));
}
