import { CatalogMirror } from '../catalog/index.ts';
import type { KioskDatabase } from '../storage/index.ts';
import { formatDuration } from './duration.ts';
import type { ErrorNote } from './service-check.ts';
import type { Problem } from './trouble.ts';

/**
 * How old the catalogue mirror is: the service time it reflects (`asOf`, the last applied
 * window's end) against the service's time now when a dated reply gave it, else the kiosk's
 * clock. A running kiosk applies the change feed every minute, so a mirror older than the
 * threshold means synchronisation has been failing (or the kiosk was off) that long.
 */

/** Default of `--stale-after`: an hour of missed one-minute change-feed windows. */
export const DEFAULT_STALE_AFTER_MS = 60 * 60 * 1000;

export interface MirrorHealth {
  /** A full synchronisation has completed. */
  readonly ready: boolean;
  readonly asOf: string | null;
  readonly ageMs: number | null;
  /** Which clock `ageMs` was measured on. */
  readonly measuredOn: 'service' | 'kiosk';
  readonly staleAfterMs: number;
  readonly stale: boolean;
  readonly products: number;
  readonly lastFullSyncAt: string | null;
  readonly lastError: (ErrorNote & { readonly at: string }) | null;
}

export function mirrorHealth(
  database: KioskDatabase,
  clocks: { readonly serviceNow: number | null; readonly kioskNow: number },
  staleAfterMs: number,
): { mirror: MirrorHealth; problems: Problem[] } {
  const mirror = new CatalogMirror(database);
  const asOf = mirror.state.get('asOf') ?? null;
  const lastFullSync = mirror.state.get('lastFullSync') ?? null;
  const lastError = mirror.state.get('lastError') ?? null;
  const now = clocks.serviceNow ?? clocks.kioskNow;
  const asOfMs = asOf === null ? Number.NaN : Date.parse(asOf);
  const ageMs = Number.isFinite(asOfMs) ? Math.max(0, now - asOfMs) : null;
  const ready = lastFullSync !== null;
  const stale = !ready || ageMs === null || ageMs > staleAfterMs;
  const health: MirrorHealth = {
    ready,
    asOf,
    ageMs,
    measuredOn: clocks.serviceNow === null ? 'kiosk' : 'service',
    staleAfterMs,
    stale,
    products: mirror.size().products,
    lastFullSyncAt: lastFullSync?.completedAt ?? null,
    lastError,
  };
  if (!stale) return { mirror: health, problems: [] };
  const why = lastError === null ? '' : ` (last sync error: ${lastError.code})`;
  const problem: Problem =
    !ready || ageMs === null
      ? {
          class: 'stale-mirror',
          code: 'MIRROR_NEVER_SYNCED',
          message: `the catalogue mirror was never fully synchronised: availability needs the service${why}`,
          next: 'a running kiosk synchronises it at start; from here: kioskctl catalog sync',
        }
      : {
          class: 'stale-mirror',
          code: 'MIRROR_STALE',
          message: `the catalogue mirror is ${formatDuration(ageMs)} old (as of ${asOf}), beyond ${formatDuration(staleAfterMs)}${why}`,
          next: 'a running, online kiosk refreshes it every minute: fix what the last error says, or refresh it now with kioskctl catalog sync',
        };
  return { mirror: health, problems: [problem] };
}
