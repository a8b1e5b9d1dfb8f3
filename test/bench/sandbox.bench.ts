import { startSandbox } from '../../sandbox/index.ts';
import type { Benchmark, Measurement } from './benchmark.ts';

/**
 * Requests per second the sandbox serves for one 500-product catalogue page, against the rate at
 * which the same page is merely JSON-serialised in process (no HTTP, no routing, no projection):
 * the ratio is the share of the work that is the bare serialisation, and reads the same on any
 * machine.
 */

const pageUrl = '/v1/catalog/products?limit=500';
const durationMs = 2000;
const concurrency = 4;

async function forDuration(
  work: () => Promise<void> | void,
  ms: number,
  parallel = 1,
): Promise<number> {
  let done = 0;
  const deadline = performance.now() + ms;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (performance.now() < deadline) {
        await work();
        done += 1;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

async function catalogPage(): Promise<Measurement> {
  const sandbox = await startSandbox({ products: 1500, seed: 1 });
  try {
    const auth = await fetch(`${sandbox.baseUrl}/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'kiosk-catalog@sandbox.test', password: 'sandbox-catalog' }),
    });
    const { token } = (await auth.json()) as { token: string };
    const headers = { authorization: `Bearer ${token}` };
    const fetchPage = async () => {
      const response = await fetch(`${sandbox.baseUrl}${pageUrl}`, { headers });
      if (response.status !== 200) throw new Error(`${pageUrl} answered ${response.status}`);
      await response.arrayBuffer();
    };
    const page: unknown = await (await fetch(`${sandbox.baseUrl}${pageUrl}`, { headers })).json();
    if ((page as { data: unknown[] }).data.length !== 500)
      throw new Error('the page does not hold 500 products');

    for (let i = 0; i < 10; i++) await fetchPage();
    const baseline = await forDuration(() => void JSON.stringify(page), durationMs);
    const value = await forDuration(fetchPage, durationMs, concurrency);
    return { value, baseline };
  } finally {
    await sandbox.close();
  }
}

const benchmarks: Benchmark[] = [
  {
    name: 'sandbox: GET /v1/catalog/products?limit=500 (baseline: JSON.stringify of the same page)',
    unit: 'req/s',
    run: catalogPage,
  },
];

export default benchmarks;
