import { CatalogProductsReply } from '../../shared/api/index.ts';
import { catalogPage, product } from '../shared/api/fixtures.ts';
import type { Benchmark } from './benchmark.ts';

/** A 500-product catalogue page as the service would send it, serialised once. */
function catalogPageText(): string {
  const data = Array.from({ length: 500 }, (_, index) => ({ ...product(), uuid: `prod_${index}` }));
  return JSON.stringify(catalogPage(data));
}

/** Pages per second over a fixed number of rounds, after a warm-up. */
function pagesPerSecond(work: () => unknown, rounds = 200): number {
  for (let i = 0; i < 20; i += 1) work();
  const start = performance.now();
  for (let i = 0; i < rounds; i += 1) work();
  return rounds / ((performance.now() - start) / 1000);
}

const body = catalogPageText();

export default [
  {
    // The cost of checking every reply against the contract, against bare JSON.parse of the same bytes.
    name: 'contract: parse + validate a 500-product catalogue page',
    unit: 'pages/s',
    async run() {
      const baseline = pagesPerSecond(() => JSON.parse(body));
      const value = pagesPerSecond(() => CatalogProductsReply.parse(JSON.parse(body)));
      return { value, baseline };
    },
  },
] satisfies Benchmark[];
