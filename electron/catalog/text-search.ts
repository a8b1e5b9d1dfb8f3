import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { MirrorTables } from './schema.ts';
import { type FilterFact, NAMING_COLUMNS, ftsFilteredQuery, ftsQueryOf } from './search-text.ts';

/**
 * The ids of one page of a text search, at a cost bounded by the page and not by how many
 * products match. Each keystroke sends the first letters of a word, which over 100,000 products
 * match tens of thousands of them; bm25 ranked every match, and its weights need how many
 * documents hold each word, a walk of the whole posting list of a word such as "de" even when a
 * single product matches. So the order is two tiers, each read along the index in rowid order
 * and stopped as soon as the page is full: the products whose name, reference or EAN match every
 * word, then those that match only through their description.
 */

export interface TextSearch {
  readonly text: string;
  readonly facts: readonly FilterFact[];
  readonly limit: number;
  readonly offset: number;
}

export class TextSearchIds {
  readonly #inOrder: StatementSync;
  readonly #count: StatementSync;

  constructor(db: DatabaseSync, tables: MirrorTables) {
    const t = tables.search;
    this.#inOrder = db.prepare(
      `SELECT rowid AS id FROM ${t} WHERE ${t} MATCH ? ORDER BY rowid LIMIT ? OFFSET ?`,
    );
    this.#count = db.prepare(`SELECT count(*) AS n FROM ${t} WHERE ${t} MATCH ?`);
  }

  /** Undefined when nothing searchable was typed (the caller browses instead). */
  ids(search: TextSearch): number[] | undefined {
    const anywhere = ftsQueryOf(search.text);
    const naming = ftsQueryOf(search.text, NAMING_COLUMNS);
    if (anywhere === null || naming === null) return undefined;
    const { facts, limit, offset } = search;
    const named = ftsFilteredQuery(naming, facts);
    const first = this.#idsOf(this.#inOrder.all(named, limit, offset));
    if (first.length === limit) return first;
    // Where the named tier ends: known from this page unless the page began past it.
    const namedTotal =
      first.length > 0 || offset === 0
        ? offset + first.length
        : Number((this.#count.get(named) as { n: number | bigint }).n);
    const describedOnly = ftsFilteredQuery(`(${anywhere} NOT ${naming})`, facts);
    const rest = this.#idsOf(
      this.#inOrder.all(describedOnly, limit - first.length, Math.max(0, offset - namedTotal)),
    );
    return first.concat(rest);
  }

  #idsOf(rows: unknown[]): number[] {
    return (rows as { id: number }[]).map((row) => row.id);
  }
}
