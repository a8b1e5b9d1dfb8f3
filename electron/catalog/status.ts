import type { CatalogMirror, MirrorSize } from './mirror.ts';
import type { SyncProgress } from './progress.ts';
import type {
  ChangeWindowRecord,
  ErrorRecord,
  FullSyncProgressRecord,
  FullSyncRecord,
} from './sync-state.ts';

/** What the kiosk's status screen and `kioskctl catalog status` show about the mirror. */
export interface CatalogStatus {
  /** A full synchronisation has completed: offline answers are possible. */
  readonly ready: boolean;
  /** The service time the mirror reflects (the last applied window's `until`). */
  readonly asOf: string | null;
  readonly lastFullSync: FullSyncRecord | null;
  readonly lastWindow: ChangeWindowRecord | null;
  /** The next change-feed `since`. */
  readonly nextSince: string | null;
  /** The periodic full resynchronisation is due (or none ever completed). */
  readonly fullSyncDue: boolean;
  /** An interrupted or running full sync: its shadow tables and how far it got. */
  readonly fullSyncInProgress: FullSyncProgressRecord | null;
  readonly size: MirrorSize;
  /**
   * `mirror`: lookups answer from the mirror. `live`: the account lacks catalogue scopes, so the
   * mirror cannot be kept up to date and lookups go to the service; `missingScopes` says which.
   */
  readonly access: { readonly mode: 'mirror' | 'live'; readonly missingScopes: readonly string[] };
  readonly lastError: ErrorRecord | null;
  /** The synchronisation running in this process, if any. */
  readonly syncing: SyncProgress | null;
}

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
        : { mode: 'live', missingScopes: forbidden.missingScopes },
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
