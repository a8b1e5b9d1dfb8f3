/**
 * The catalogue mirror: full sync, change feed, availability queries. Everything public is here;
 * the shapes of its answers, status and progress are the IPC contract's (shared/ipc/catalog.ts).
 */
export { type ChangeCounts, type ChangeFeedResult } from './change-feed.ts';
export { CatalogError, type CatalogErrorCode } from './errors.ts';
export { type FullSyncResult } from './full-sync.ts';
export { CatalogMirror } from './mirror.ts';
export { type ProgressListener } from './progress.ts';
export { CatalogQueries, type CatalogQueriesOptions, type ProductLookup } from './queries.ts';
export { type ReferentialRow, fetchReferentials, readReferential } from './referentials.ts';
export { liveTables, MIRROR_TABLE_PREFIX, type MirrorTables } from './schema.ts';
export { mirrorMigration } from './migrations/003-mirror.ts';
export { itemsRowidMigration } from './migrations/009-items-rowid.ts';
export { itemsInEntriesMigration } from './migrations/010-items-in-entries.ts';
export { oneLetterPrefixMigration } from './migrations/011-one-letter-prefix.ts';
export { contentlessSearchMigration } from './migrations/017-contentless-search.ts';
export { ftsQueryOf, normalizeSearchText } from './search-text.ts';
export { type CatalogSource, type OnlineProbe, onlineProbeOf } from './source.ts';
export {
  type CatalogSyncEvents,
  type CatalogSyncOptions,
  CatalogSyncService,
  type SyncOutcome,
  type SyncRequest,
} from './sync-service.ts';
export type { AccessRecord } from './sync-state.ts';
