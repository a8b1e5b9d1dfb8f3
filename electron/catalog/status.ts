import type { CatalogStatus, FullSyncRecord, SyncProgress } from '../../shared/ipc/catalog.ts';
import type { CatalogMirror } from './mirror.ts';

export function readStatus(
  mirror: CatalogMirror,
  options: { now: number; fullResyncIntervalMs: number; syncing: SyncProgress | null },
): CatalogStatus {
  const { state } = mirror;
  const lastFullSync = state.get('lastFullSync') ?? null;
  const forbidden = state.get('forbidden');
  return {
    ready: lastFullSync !== null,
    asOf: state.get('asOf') ?? null,
    lastFullSync,
    lastWindow: state.get('lastWindow') ?? null,
    nextSince: state.get('cursor') ?? null,
    fullSyncDue: isFullSyncDue(lastFullSync, options.now, options.fullResyncIntervalMs),
    fullSyncInProgress: state.get('fullSyncProgress') ?? null,
    size: mirror.size(),
    access:
      forbidden === undefined
        ? { mode: 'mirror', missingScopes: [] }
        : { mode: 'live', missingScopes: [...forbidden.missingScopes] },
    lastError: state.get('lastError') ?? null,
    syncing: options.syncing,
  };
}

export function isFullSyncDue(
  lastFullSync: FullSyncRecord | null,
  now: number,
  intervalMs: number,
): boolean {
  if (lastFullSync === null) return true;
  return now - Date.parse(lastFullSync.completedAt) >= intervalMs;
}
