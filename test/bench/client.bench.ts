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

async function median(iterations: number, once: () => Promise<void>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < iterations; i += 1) {
    const started = performance.now();
    await once();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

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
        const baseline = await median(9, raw);
        const value = await median(9, viaClient);
        return { value, baseline };
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
