import { describe, expect, it } from 'vitest';
import { ProgressTracker } from '../../../electron/catalog/progress.ts';
import {
  filterToken,
  ftsFilteredQuery,
  ftsQueryOf,
  normalizeSearchText,
} from '../../../electron/catalog/search-text.ts';
import type { SyncProgress } from '../../../shared/ipc/catalog.ts';

describe('search text', () => {
  it('folds accents and French ligatures the way the index does', () => {
    expect(normalizeSearchText('Téléviseur Cœur Ægée ß')).toBe('Televiseur Coeur AEgee ss');
    expect(normalizeSearchText(null)).toBe('');
  });

  it('turns what staff type into quoted prefix terms, FTS syntax included', () => {
    const text = '{name reference ean description}';
    expect(ftsQueryOf('télév  Sony')).toBe(`${text} : ("telev"* "Sony"*)`);
    expect(ftsQueryOf('a"b OR c*')).toBe(`${text} : ("a"* "b"* "OR"* "c"*)`);
    expect(ftsQueryOf('  -*()" ')).toBeNull();
    const long = ftsQueryOf(Array.from({ length: 30 }, (_, i) => `w${i}`).join(' '));
    expect(long?.match(/\*/g)).toHaveLength(12);
  });

  it('spells filter facts as whole tokens, whatever the identifier holds', () => {
    expect(filterToken({ kind: 'availableInShop', shopId: 'shop_lyon-part-dieu' })).toMatch(
      /^a[0-9a-f]+$/,
    );
    expect(filterToken({ kind: 'shop', shopId: 'x' })).toBe('s78');
    const facts = [{ kind: 'stockAvailable' }, { kind: 'displayedOnline', value: false }] as const;
    expect(ftsFilteredQuery('Q', facts)).toBe('Q AND filters : "k1" AND filters : "o0"');
  });
});

describe('sync progress', () => {
  it('derives the rate and the time left from the pages done', () => {
    let now = 0;
    const events: SyncProgress[] = [];
    const tracker = new ProgressTracker(
      'full',
      () => now,
      (event) => events.push(event),
    );
    tracker.phase('products', {
      pagesTotal: 10,
      productsTotal: 5_000,
      pagesDone: 2,
      productsDone: 1_000,
    });
    now = 1_000;
    tracker.page(500);
    expect(events.at(-1)).toMatchObject({
      phase: 'products',
      pagesDone: 3,
      pagesTotal: 10,
      productsDone: 1_500,
      // Only what this run fetched counts towards the rate (a resumed sync's earlier pages do not).
      productsPerSecond: 500,
      etaMs: 7_000,
    });
  });
});
