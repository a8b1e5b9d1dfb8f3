import { setImmediate } from 'node:timers/promises';
import { defaultProfile } from '../../shared/profile/index.ts';
import type { CatalogProductsReply } from '../../shared/api/catalog.ts';
import type { FullSyncProgressRecord, FullSyncRecord } from '../../shared/ipc/catalog.ts';
import { ContractViolation } from '../api/index.ts';
import type { CatalogMirror } from './mirror.ts';
import type { MirrorWriter } from './mirror-writer.ts';
import { fetchReferentials, referentialKinds, writeReferentials } from './referentials.ts';
import type { CatalogSource } from './source.ts';
import { runSettings, type SyncRunOptions } from './sync-run.ts';

/**
 * `displayedOnline` is a filter with a default (true): the catalogue route never returns hidden
 * and visible products together, and the kiosk sells both. A full sync walks both views.
 */
export const catalogViews = [true, false] as const;

export interface FullSyncOptions extends SyncRunOptions {
  /** An interrupted full sync younger than this continues where it stopped; older ones restart. */
  readonly resumeWithinMs?: number;
  /** The change feed is resumed this long before the sync's first page, to cover clock skew. */
  readonly cursorOverlapMs?: number;
}

export interface FullSyncResult extends FullSyncRecord {
  readonly resumed: boolean;
}

const DEFAULT_RESUME_WITHIN_MS = 6 * 60 * 60 * 1000;
const DEFAULT_CURSOR_OVERLAP_MS = 60 * 1000;
/** About twenty catalogue pages of log between two checkpoints of the walk. */
const WALK_CHECKPOINT_PAGES = 16_384;

/**
 * Downloads the whole catalogue into the shadow tables, one committed transaction per page (memory
 * holds at most two pages: the one being written and the next one in flight), then swaps it in.
 * The live mirror keeps answering meanwhile. Each page's transaction also records how far the walk
 * got, so a process killed mid-way continues from the next page; the change-feed cursor set by the
 * swap starts before the first page, so whatever changed during the walk is caught up after.
 */
export async function runFullSync(
  mirror: CatalogMirror,
  source: CatalogSource,
  options: FullSyncOptions,
): Promise<FullSyncResult> {
  const { now, progress, signal } = options;
  const { pageSize, callOptions } = runSettings(options);
  const startedAtMs = now();

  // Probing the views first gives the totals for the progress bar, the service-side start time
  // (the next change-feed `since`), and a 403 before anything is written.
  progress.phase('referentials');
  const probes: CatalogProductsReply[] = [];
  for (const displayedOnline of catalogViews) {
    probes.push(
      await source.listCatalogProducts(
        { query: { page: 1, limit: 1, displayedOnline } },
        callOptions,
      ),
    );
  }
  const productsTotal = probes.reduce((sum, probe) => sum + probe.pagination.total, 0);
  const pagesTotal = probes.reduce(
    (sum, probe) => sum + Math.max(1, Math.ceil(probe.pagination.total / pageSize)),
    0,
  );

  options.heartbeat?.();
  const previous = resumable(mirror, now(), options.resumeWithinMs ?? DEFAULT_RESUME_WITHIN_MS);
  const generation = previous?.record.generation ?? (mirror.state.get('generation') ?? 0) + 1;
  let record: FullSyncProgressRecord = previous?.record ?? {
    startedAt: new Date(startedAtMs).toISOString(),
    serverStartedAt: probes[0]!.meta.generatedAt,
    generation,
    walk: 0,
    nextPage: 1,
    pagesDone: 0,
    productsDone: 0,
  };
  const shadow = previous?.shadow ?? mirror.createShadow();

  const referentials = await fetchReferentials(
    source,
    referentialKinds,
    options.profile ?? defaultProfile,
    signal,
  );
  mirror.transaction(() => {
    writeReferentials(shadow, referentials);
    mirror.state.set('fullSyncProgress', record);
  });
  options.heartbeat?.();

  progress.phase('products', {
    pagesDone: record.pagesDone,
    pagesTotal,
    productsDone: record.productsDone,
    productsTotal,
  });

  // The log may grow to a few pages' worth between checkpoints (mirror.ts says why).
  await mirror.withCheckpointEvery(WALK_CHECKPOINT_PAGES, async () => {
    for (let walk = record.walk; walk < catalogViews.length; walk += 1) {
      const displayedOnline = catalogViews[walk]!;
      const fetchPage = (page: number) =>
        source.listCatalogProducts(
          { query: { page, limit: pageSize, displayedOnline } },
          callOptions,
        );
      let page = walk === record.walk ? record.nextPage : 1;
      let inFlight = fetchPage(page);
      for (;;) {
        const reply = await inFlight;
        if (reply.pagination.page !== page) {
          throw new ContractViolation({
            operationId: 'listCatalogProducts',
            reason: 'pagination',
            path: 'pagination.page',
            explanation: `asked for page ${page}, got page ${reply.pagination.page}`,
          });
        }
        const more = reply.pagination.hasNextPage;
        if (more && reply.data.length === 0) {
          throw new ContractViolation({
            operationId: 'listCatalogProducts',
            reason: 'pagination',
            path: 'pagination.hasNextPage',
            explanation: `page ${page} is empty but claims a next page`,
          });
        }
        // The next page travels while this one is written. Writing is synchronous and holds the
        // event loop, so the request is given one turn of it to leave first: otherwise it would
        // only be sent once the page is written, and the walk would wait for every page in turn.
        if (more) {
          inFlight = fetchPage(page + 1);
          inFlight.catch(() => undefined);
          await setImmediate();
        }
        signal?.throwIfAborted();
        const syncedAt = now();
        record = {
          ...record,
          walk: more ? walk : walk + 1,
          nextPage: more ? page + 1 : 1,
          pagesDone: record.pagesDone + 1,
          productsDone: record.productsDone + reply.data.length,
        };
        const committed = record;
        // The shadow is rebuildable, so its pages need not wait for the disk: a power cut loses at
        // most the last pages and their progress record together, and the walk resumes before them.
        mirror.transaction(
          () => {
            // Each product is let go once written: the scavenges its own writing triggers then
            // find the written part of the page dead instead of promoting it to the old
            // generation, which lowered the 100,000-product peak by about 10 MB.
            const products = reply.data as (typeof reply.data)[number][];
            for (let i = 0; i < products.length; i += 1) {
              shadow.upsertProduct(products[i]!, syncedAt);
              products[i] = undefined as never;
            }
            mirror.state.set('fullSyncProgress', committed);
            // The lease is renewed in the page's own commit: on its own it was a commit at full
            // durability after every page, whose fsync wrote out the page the deferred commit had
            // just spared. A renewal a power cut loses only lets the lease lapse sooner.
            options.heartbeat?.();
          },
          { durability: 'deferred' },
        );
        progress.totals(Math.max(pagesTotal, record.pagesDone), productsTotal);
        progress.page(reply.data.length);
        if (!more) break;
        page += 1;
      }
    }
  });

  progress.phase('swap', {
    pagesDone: record.pagesDone,
    pagesTotal: record.pagesDone,
    productsDone: record.productsDone,
    productsTotal,
  });
  signal?.throwIfAborted();
  mirror.indexShadow(generation);
  options.heartbeat?.();
  const completedAtMs = now();
  const overlap = options.cursorOverlapMs ?? DEFAULT_CURSOR_OVERLAP_MS;
  const serverStart = Date.parse(record.serverStartedAt);
  const result: FullSyncResult = {
    startedAt: record.startedAt,
    completedAt: new Date(completedAtMs).toISOString(),
    serverStartedAt: record.serverStartedAt,
    products: mirror.size(shadow.tables).products,
    pages: record.pagesDone,
    durationMs: completedAtMs - Date.parse(record.startedAt),
    resumed: previous !== undefined,
  };
  mirror.transaction(() => {
    mirror.swapInShadow();
    mirror.state.set('generation', generation);
    mirror.state.set('cursor', new Date(serverStart - overlap).toISOString());
    mirror.state.set('asOf', record.serverStartedAt);
    mirror.state.set('lastFullSync', {
      startedAt: result.startedAt,
      completedAt: result.completedAt,
      serverStartedAt: result.serverStartedAt,
      products: result.products,
      pages: result.pages,
      durationMs: result.durationMs,
    });
    mirror.state.delete('fullSyncProgress');
  });
  return result;
}

/** The interrupted full sync to continue, if its shadow tables are intact and it is recent. */
function resumable(
  mirror: CatalogMirror,
  nowMs: number,
  withinMs: number,
): { record: FullSyncProgressRecord; shadow: MirrorWriter } | undefined {
  const record = mirror.state.get('fullSyncProgress');
  if (record === undefined) return undefined;
  const shadow = mirror.existingShadow();
  if (shadow === undefined || nowMs - Date.parse(record.startedAt) > withinMs) return undefined;
  return { record, shadow };
}
