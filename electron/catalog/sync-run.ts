import type { IntegrationProfile } from '../../shared/profile/index.ts';
import { MAX_PAGE_SIZE } from '../../shared/api/primitives.ts';
import type { ProgressTracker } from './progress.ts';

/** What a full sync and a change-feed window are both run with: the sync service gives them alike. */
export interface SyncRunOptions {
  readonly now: () => number;
  readonly progress: ProgressTracker;
  readonly signal?: AbortSignal | undefined;
  /** Page size of the catalogue routes and the change feed (the spec's maximum by default). */
  readonly pageSize?: number;
  /** Called between steps (after each page read, applied or committed): the sync lease is renewed there. */
  readonly heartbeat?: () => void;
  /** How the service shapes the referential lists (default: the sandbox's dialect). */
  readonly profile?: IntegrationProfile;
}

/** The page size in force, and what every call of the run carries (its abort signal). */
export function runSettings(options: SyncRunOptions): {
  readonly pageSize: number;
  readonly callOptions: { readonly signal: AbortSignal } | undefined;
} {
  return {
    pageSize: options.pageSize ?? MAX_PAGE_SIZE,
    callOptions: options.signal === undefined ? undefined : { signal: options.signal },
  };
}
