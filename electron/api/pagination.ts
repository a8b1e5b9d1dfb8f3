import type { z } from 'zod';
import type {
  CatalogChange,
  CatalogChangesQuery,
  CatalogChangesReply,
} from '../../shared/api/catalog.ts';
import type { OperationName, Operations } from '../../shared/api/operations.ts';
import { ContractViolation } from './errors.ts';
import type { OperationOutput } from './operation-types.ts';

/** Operations that can be walked page by page: a list with a `page` query parameter. */
export type PageableOperation = {
  [N in OperationName]: Operations[N] extends {
    readonly pagination: 'catalog' | 'products' | 'list';
    readonly query: infer Q extends z.ZodType;
  }
    ? 'page' extends keyof z.input<Q>
      ? N
      : never
    : never;
}[OperationName];

export type PageItem<N extends PageableOperation> =
  OperationOutput<N> extends { readonly data: readonly (infer T)[] } ? T : never;

export interface PageReply {
  readonly pagination: { readonly page: number; readonly hasNextPage: boolean };
}

/** The shape every pageable operation's reply has (checked by its schema before it gets here). */
export interface ListReply extends PageReply {
  readonly data: readonly unknown[];
}

/**
 * Yields every page from `firstPage` until `hasNextPage` is false. A reply for another page than
 * the one asked, or an empty page that claims a next one, would loop forever: both stop the walk
 * with a ContractViolation.
 */
export async function* walkPages<R extends PageReply>(
  operationId: string,
  firstPage: number,
  fetchPage: (page: number) => Promise<R>,
  countOf: (reply: R) => number,
): AsyncGenerator<R, void, undefined> {
  for (let page = firstPage; ; page += 1) {
    const reply = await fetchPage(page);
    if (reply.pagination.page !== page) {
      throw new ContractViolation({
        operationId,
        reason: 'pagination',
        path: 'pagination.page',
        explanation: `asked for page ${page}, got page ${reply.pagination.page}`,
      });
    }
    yield reply;
    if (!reply.pagination.hasNextPage) return;
    if (countOf(reply) === 0) {
      throw new ContractViolation({
        operationId,
        reason: 'pagination',
        path: 'pagination.hasNextPage',
        explanation: `page ${page} is empty but claims a next page`,
      });
    }
  }
}

/** The change-feed query without `page`: the window walks the pages itself. */
export type ChangeFeedQuery = Omit<z.input<typeof CatalogChangesQuery>, 'page'>;

/**
 * One window of the change feed (spec rules 1 and 2): every page is asked with the same `until`
 * (the caller's, or the one the server chose on the first page), and once the last page is read
 * that `until` is the next `since` to store.
 */
export class ChangeFeedWindow implements AsyncIterable<CatalogChangesReply> {
  readonly #fetchPage: (query: z.input<typeof CatalogChangesQuery>) => Promise<CatalogChangesReply>;
  readonly #query: ChangeFeedQuery;
  #until: string | undefined;
  #nextSince: string | undefined;
  #started = false;

  constructor(
    query: ChangeFeedQuery,
    fetchPage: (query: z.input<typeof CatalogChangesQuery>) => Promise<CatalogChangesReply>,
  ) {
    this.#query = query;
    this.#until = query.until;
    this.#fetchPage = fetchPage;
  }

  /** The window's upper bound, known after the first page. */
  get until(): string | undefined {
    return this.#until;
  }

  /** Throws until the last page was read: storing it earlier would skip the unread changes. */
  get nextSince(): string {
    if (this.#nextSince === undefined)
      throw new Error('the change-feed window has not been read to its last page');
    return this.#nextSince;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<CatalogChangesReply, void, undefined> {
    if (this.#started) throw new Error('a change-feed window is read once; open a new one');
    this.#started = true;
    const pages = walkPages(
      'listCatalogChanges',
      1,
      (page) =>
        this.#fetchPage({
          ...this.#query,
          ...(this.#until === undefined ? {} : { until: this.#until }),
          page,
        }),
      (reply) => reply.changes.length,
    );
    for await (const reply of pages) {
      if (this.#until === undefined) {
        this.#until = reply.until;
      } else if (Date.parse(reply.until) !== Date.parse(this.#until)) {
        throw new ContractViolation({
          operationId: 'listCatalogChanges',
          reason: 'pagination',
          path: 'until',
          explanation: `the window moved from ${this.#until} to ${reply.until} between pages`,
        });
      }
      yield reply;
      if (!reply.pagination.hasNextPage) this.#nextSince = this.#until;
    }
  }

  /** Reads the whole window: every change in order, and the next `since`. */
  async collect(): Promise<{ readonly changes: CatalogChange[]; readonly nextSince: string }> {
    const changes: CatalogChange[] = [];
    for await (const reply of this) changes.push(...reply.changes);
    return { changes, nextSince: this.nextSince };
  }
}
