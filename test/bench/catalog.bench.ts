import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { createApiClient } from '../../electron/api/client.ts';
import { CatalogQueries } from '../../electron/catalog/index.ts';
import { CatalogSyncService } from '../../electron/catalog/sync-service.ts';
import { openDatabase } from '../../electron/storage/database.ts';
import { kioskSchema } from '../../electron/schema.ts';
import type { SearchProductsRequest } from '../../shared/ipc/catalog.ts';
import type { Benchmark } from './benchmark.ts';

/**
 * Catalogue mirror benchmarks. Each measured sync runs in a child process of its own (this file,
 * started with CHILD), so its memory peak is its own and not the sum of earlier runs; the sandbox
 * runs in another process, as the service would. The baseline is the same pages, fetched with the
 * same one-page lookahead by bare `fetch`, `JSON.parse`d and inserted as one row per product,
 * without validation, items or search index, in the same kind of database (WAL, synchronous=FULL).
 */

const CHILD = '--catalog-bench-child';
const PAGE = 500;
const here = fileURLToPath(import.meta.url);
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

interface SyncFigures {
  readonly products: number;
  readonly seconds: number;
  /** Peak resident set size during the sync, above the process's size just before it. */
  readonly peakRssDeltaBytes: number;
}

// ---------------------------------------------------------------- child side

/** Samples the resident set size: at every page (the caller) and every 20 ms meanwhile. */
function rssPeak(): { sample(): void; stop(): number } {
  const base = process.memoryUsage.rss();
  let peak = base;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage.rss());
  };
  const timer = setInterval(sample, 20);
  return {
    sample,
    stop() {
      clearInterval(timer);
      sample();
      return peak - base;
    },
  };
}

async function rawSync(
  baseUrl: string,
  email: string,
  password: string,
  dataDir: string,
): Promise<SyncFigures> {
  const db = new DatabaseSync(join(dataDir, 'raw.sqlite'));
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL');
  db.exec('CREATE TABLE raw_products (uuid TEXT PRIMARY KEY, body TEXT NOT NULL) STRICT');
  const insert = db.prepare('INSERT OR REPLACE INTO raw_products (uuid, body) VALUES (?, ?)');
  const memory = rssPeak();
  const started = performance.now();
  const auth = await fetch(`${baseUrl}/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const { token } = (await auth.json()) as { token: string };
  const fetchPage = async (page: number, displayedOnline: boolean) => {
    const reply = await fetch(
      `${baseUrl}/v1/catalog/products?page=${page}&limit=${PAGE}&displayedOnline=${displayedOnline}`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    return JSON.parse(await reply.text()) as {
      data: { uuid: string }[];
      pagination: { hasNextPage: boolean };
    };
  };
  let products = 0;
  for (const displayedOnline of [true, false]) {
    let page = 1;
    let next = fetchPage(page, displayedOnline);
    for (;;) {
      const reply = await next;
      if (reply.pagination.hasNextPage) next = fetchPage(page + 1, displayedOnline);
      db.exec('BEGIN IMMEDIATE');
      for (const product of reply.data) insert.run(product.uuid, JSON.stringify(product));
      db.exec('COMMIT');
      products += reply.data.length;
      memory.sample();
      if (!reply.pagination.hasNextPage) break;
      page += 1;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  db.close();
  return { products, seconds, peakRssDeltaBytes: memory.stop() };
}

async function mirrorSync(
  baseUrl: string,
  email: string,
  password: string,
  dataDir: string,
): Promise<SyncFigures> {
  const database = openDatabase({ dataDir, schema: kioskSchema });
  const client = createApiClient({ baseUrl, credentials: async () => ({ email, password }) });
  const service = new CatalogSyncService({ database, source: client, pageSize: PAGE });
  const memory = rssPeak();
  service.events.on('progress', () => memory.sample());
  const started = performance.now();
  const outcome = await service.sync({ full: true });
  const seconds = (performance.now() - started) / 1000;
  client.close();
  database.close();
  return { products: outcome.fullSync?.products ?? 0, seconds, peakRssDeltaBytes: memory.stop() };
}

if (process.argv[2] === CHILD) {
  const [mode, baseUrl, email, password, dataDir] = process.argv.slice(3) as [
    string,
    string,
    string,
    string,
    string,
  ];
  const figures =
    mode === 'raw'
      ? await rawSync(baseUrl, email, password, dataDir)
      : await mirrorSync(baseUrl, email, password, dataDir);
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

// ---------------------------------------------------------------- parent side

async function firstLine(child: ChildProcess): Promise<string> {
  if (child.stdout === null) throw new Error('child without stdout');
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`child exited with ${code} before answering`))),
  );
  const lines = createInterface({ input: child.stdout });
  const line = new Promise<string>((resolve) => lines.once('line', resolve));
  try {
    return await Promise.race([line, exited]);
  } finally {
    lines.close();
  }
}

async function runChild(
  mode: 'raw' | 'mirror',
  sandbox: SandboxProcess,
  dataDir: string,
): Promise<SyncFigures> {
  const child = spawn(
    process.execPath,
    [here, CHILD, mode, sandbox.baseUrl, sandbox.email, sandbox.password, dataDir],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const figures = JSON.parse(await firstLine(child)) as SyncFigures;
  await new Promise((resolve) =>
    child.exitCode !== null ? resolve(null) : child.once('exit', resolve),
  );
  return figures;
}

interface SandboxProcess {
  readonly baseUrl: string;
  readonly email: string;
  readonly password: string;
  stop(): Promise<void>;
}

async function startSandboxProcess(products: number): Promise<SandboxProcess> {
  // Its request log (stderr) is not what the benchmark reports.
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'sandbox/main.ts'), '--products', String(products), '--seed', '1'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const ready = JSON.parse(await firstLine(child)) as {
    baseUrl: string;
    accounts: { email: string; password: string; scopes: string[] }[];
  };
  const account =
    ready.accounts.find((candidate) => candidate.email === 'kiosk-catalog@sandbox.test') ??
    ready.accounts[0]!;
  return {
    baseUrl: ready.baseUrl,
    email: account.email,
    password: account.password,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

interface SizeRun {
  readonly raw: SyncFigures;
  readonly mirror: SyncFigures;
  /** The mirror's data directory (kept for the search benchmark). */
  readonly dataDir: string;
}

const runs = new Map<number, Promise<SizeRun>>();
const SEARCH_SIZE = 100_000;

/** Both syncs of one catalogue size, measured once and shared by the figures that need them. */
function measure(size: number): Promise<SizeRun> {
  let run = runs.get(size);
  if (run === undefined) {
    run = (async () => {
      const sandbox = await startSandboxProcess(size);
      const scratch = mkdtempSync(join(tmpdir(), 'catalog-bench-'));
      try {
        // A first walk warms the sandbox's page caches, so both measured runs meet the same server.
        await runChild('raw', sandbox, mkdtempSync(join(scratch, 'warm-')));
        const raw = await runChild('raw', sandbox, mkdtempSync(join(scratch, 'raw-')));
        const dataDir = mkdtempSync(join(tmpdir(), 'catalog-bench-mirror-'));
        const mirror = await runChild('mirror', sandbox, dataDir);
        // Only the largest mirror is searched afterwards.
        if (size !== SEARCH_SIZE) rmSync(dataDir, { recursive: true, force: true });
        if (mirror.products !== size || raw.products !== size) {
          throw new Error(
            `synced ${mirror.products} (mirror) and ${raw.products} (raw) products of ${size}`,
          );
        }
        return { raw, mirror, dataDir };
      } finally {
        rmSync(scratch, { recursive: true, force: true });
        await sandbox.stop();
      }
    })();
    runs.set(size, run);
  }
  return run;
}

const MB = 1024 * 1024;

function syncBenchmarks(size: number, label: string): Benchmark[] {
  return [
    {
      name: `catalog: full sync of ${label} products (mirror vs raw fetch+parse+insert)`,
      unit: 'products/s',
      async run() {
        const { raw, mirror } = await measure(size);
        return { value: mirror.products / mirror.seconds, baseline: raw.products / raw.seconds };
      },
    },
    {
      name: `catalog: full sync of ${label} products, peak RSS above start (mirror vs raw)`,
      unit: 'MB',
      async run() {
        const { raw, mirror } = await measure(size);
        return { value: mirror.peakRssDeltaBytes / MB, baseline: raw.peakRssDeltaBytes / MB };
      },
    },
  ];
}

let searchFigures: Promise<{ p50: number; p99: number }> | undefined;

/** What staff type: the first letters of a word, two words, an EAN, a reference, with filters. */
function searchWorkload(database: DatabaseSync): SearchProductsRequest[] {
  const rows = database
    .prepare(`SELECT body FROM catalog_product_bodies ORDER BY (id * 7919) % 100003 LIMIT 200`)
    .all() as { body: string }[];
  const shops = (database.prepare('SELECT id FROM catalog_shops').all() as { id: string }[]).map(
    (row) => row.id,
  );
  const queries: SearchProductsRequest[] = [];
  rows.forEach((row, index) => {
    const product = JSON.parse(row.body) as {
      name: string | null;
      ean: string | null;
      reference: string | null;
    };
    const words = (product.name ?? '').split(/\s+/).filter((word) => word.length >= 3);
    const shopId = shops[index % shops.length];
    if (words[0]) {
      queries.push({ text: words[0].slice(0, 3) });
      queries.push({ text: words[0].slice(0, 5).toLowerCase(), shopId, availableOnly: true });
    }
    if (words[0] && words[1]) queries.push({ text: `${words[0]} ${words[1].slice(0, 4)}` });
    if (words[2]) queries.push({ text: words[2], shopId });
    if (product.ean) queries.push({ text: product.ean });
    if (product.reference) queries.push({ text: product.reference.toLowerCase() });
  });
  return queries;
}

function measureSearch(): Promise<{ p50: number; p99: number }> {
  searchFigures ??= (async () => {
    const { dataDir } = await measure(SEARCH_SIZE);
    const database = openDatabase({ dataDir, schema: kioskSchema });
    try {
      const queries = new CatalogQueries({ database });
      const workload = searchWorkload(database.connection);
      for (const query of workload.slice(0, 100)) queries.searchMirror(query);
      const latencies: number[] = [];
      for (let round = 0; round < 2; round += 1) {
        for (const query of workload) {
          const started = performance.now();
          queries.searchMirror(query);
          latencies.push(performance.now() - started);
        }
      }
      latencies.sort((a, b) => a - b);
      const at = (q: number) =>
        latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
      return { p50: at(0.5), p99: at(0.99) };
    } finally {
      database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  })();
  return searchFigures;
}

export default [
  ...syncBenchmarks(20_000, '20,000'),
  ...syncBenchmarks(100_000, '100,000'),
  {
    name: 'catalog: search latency p50 over 100,000 products (FTS5, ranked, 20 hits)',
    unit: 'ms',
    run: async () => ({ value: (await measureSearch()).p50 }),
  },
  {
    name: 'catalog: search latency p99 over 100,000 products (FTS5, ranked, 20 hits)',
    unit: 'ms',
    run: async () => ({ value: (await measureSearch()).p99 }),
  },
] satisfies Benchmark[];
