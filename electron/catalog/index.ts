/** The catalogue mirror: full sync, change feed, availability queries. Everything public is here. */
export {
  type AnswerSource,
  CatalogQueries,
  type CatalogQueriesOptions,
  type ProductAnswer,
  type ProductLookup,
  type ProductView,
  type SearchAnswer,
  type SearchHit,
  type SearchQuery,
  type ShopAvailability,
} from './availability.ts';
export { type ChangeCounts, type ChangeFeedResult } from './change-feed.ts';
export { CatalogError, type CatalogErrorCode } from './errors.ts';
export { type FullSyncResult } from './full-sync.ts';
export { CatalogMirror, type MirrorSize } from './mirror.ts';
export {
  type ProgressListener,
  type SyncKind,
  type SyncPhase,
  type SyncProgress,
} from './progress.ts';
export { catalogMigration } from './schema.ts';
export { ftsQueryOf, normalizeSearchText } from './search-text.ts';
export { type CatalogSource, type OnlineProbe, onlineProbeOf } from './source.ts';
export { type CatalogStatus } from './status.ts';
export {
  type CatalogSyncEvents,
  type CatalogSyncOptions,
  CatalogSyncService,
  type SyncOutcome,
  type SyncRequest,
} from './sync-service.ts';
export type {
  AccessRecord,
  ChangeWindowRecord,
  ErrorRecord,
  FullSyncProgressRecord,
  FullSyncRecord,
} from './sync-state.ts';
