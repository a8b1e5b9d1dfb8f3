import { performance } from 'node:perf_hooks';
import { startSandbox } from '../../sandbox/index.ts';
import { CommerceApiClient } from '../../electron/api/client.ts';
import type { Benchmark } from './benchmark.ts';

/**
 * What the API client costs on top of the wire: validating the request, the token, the retry
 * bookkeeping and, above all, parsing a 500-product catalogue page with the strict contract
 * schemas. The baseline is the same page fetched with `fetch` and `JSON.parse` alone, in the
 * same run against the same sandbox.
 */

const catalogueSize = 1_500;
const pageSize = 500;

async function withSandbox<T>(
  run: (baseUrl: string, account: { email: string; password: string }) => Promise<T>,
): Promise<T> {
  const sandbox = await startSandbox({ port: 0, products: catalogueSize });
  try {
    const account = sandbox.accounts.reduce((best, candidate) =>
      candidate.scopes.length > best.scopes.length ? candidate : best,
    );
    return await run(sandbox.baseUrl, account);
  } finally {
    await sandbox.close();
  }
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(once: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await once();
  return performance.now() - started;
}

/**
 * Rounds of calls, the two sides taking turns call by call, so a burst of load on the shared
 * machine (or a full collection) falls on both alike: run one after the other, nine of each, the
 * same page read 1.11x in one run and 1.42x in the next. Each round's medians are kept.
 */
const ROUNDS = 5;
const CALLS_PER_ROUND = 9;

const pageVsRaw: Benchmark = {
  name: 'api client: 500-product catalogue page (vs fetch + JSON.parse)',
  unit: 'ms',
  run: () =>
    withSandbox(async (baseUrl, account) => {
      const client = new CommerceApiClient({ baseUrl, credentials: async () => account });
      try {
        const authReply = await fetch(`${baseUrl}/auth`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: account.email, password: account.password }),
        });
        const { token } = (await authReply.json()) as { token: string };
        const url = `${baseUrl}/v1/catalog/products?page=1&limit=${pageSize}`;
        const raw = async () => {
          const response = await fetch(url, {
            headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
          });
          const page = JSON.parse(await response.text()) as { data: unknown[] };
          if (page.data.length !== pageSize)
            throw new Error(`raw page has ${page.data.length} products`);
        };
        const viaClient = async () => {
          const page = await client.listCatalogProducts({ query: { page: 1, limit: pageSize } });
          if (page.data.length !== pageSize)
            throw new Error(`client page has ${page.data.length} products`);
        };
        // Warm both paths (connections, JIT, the sandbox's own caches) before measuring.
        for (let i = 0; i < 3; i += 1) {
          await raw();
          await viaClient();
        }
        const runs = { value: [] as number[], baseline: [] as number[] };
        for (let round = 0; round < ROUNDS; round += 1) {
          const rawTimes: number[] = [];
          const clientTimes: number[] = [];
          for (let i = 0; i < CALLS_PER_ROUND; i += 1) {
            // Which side goes first alternates too: the second of a pair finds the heap dirtier.
            if (i % 2 === 0) {
              rawTimes.push(await timed(raw));
              clientTimes.push(await timed(viaClient));
            } else {
              clientTimes.push(await timed(viaClient));
              rawTimes.push(await timed(raw));
            }
          }
          runs.value.push(median(clientTimes));
          runs.baseline.push(median(rawTimes));
        }
        return { value: median(runs.value), baseline: median(runs.baseline), runs };
      } finally {
        client.close();
      }
    }),
};

const pagingThroughput: Benchmark = {
  name: 'api client: full-catalogue paging throughput',
  unit: 'products/s',
  run: () =>
    withSandbox(async (baseUrl, account) => {
      const client = new CommerceApiClient({ baseUrl, credentials: async () => account });
      try {
        // Every page of the default view (products displayed online), until hasNextPage is false.
        const walk = async () => {
          let count = 0;
          let total = 0;
          for await (const page of client.pages('listCatalogProducts', {
            query: { limit: pageSize },
          })) {
            count += page.data.length;
            total = page.pagination.total;
          }
          if (count !== total)
            throw new Error(`walked ${count} products, the catalogue reports ${total}`);
          return count;
        };
        await walk();
        const started = performance.now();
        let products = 0;
        for (let i = 0; i < 3; i += 1) products += await walk();
        const seconds = (performance.now() - started) / 1000;
        return { value: products / seconds };
      } finally {
        client.close();
      }
    }),
};

export default [pageVsRaw, pagingThroughput] satisfies Benchmark[];
