import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext } from '@playwright/test';
import { build } from 'vite';
import { fixedCredentials } from '../../electron/kiosk/credential-store.ts';
import { createKioskServices } from '../../electron/kiosk/kiosk-services.ts';
import { CardCache } from '../../electron/outbox/card-cache.ts';
import { chromiumLaunchOptions } from '../e2e/support/chromium.ts';
import type { Benchmark, Measurement } from './benchmark.ts';
import { startSandboxProcess } from './sandbox-process.ts';
import { seedSettledDebits } from './settled-debits.ts';
import { startEmptyPage } from './empty-page.ts';

/**
 * A kiosk switched on with the service out of reach: the browser host started as `npm start`
 * starts it (`electron/host/browser-main.ts`, the kiosk's V8 flags) on a data directory that
 * holds a 100,000-product mirror, 1,000 cached cards and 10,000 settled debits, its service's
 * address refusing connections (the sandbox that filled it stopped). Timed from the process's
 * spawn, in one browser profile kept from start to start, as the kiosk's window keeps its own:
 * - to the first product row of Availability painted: the mirror's answer on screen;
 * - to an offline debit on a cached card accepted: the renderer's own IPC call, sent once that
 *   screen is painted, and its reply read in the page (stored durably, to be sent later).
 * Baseline, each round: an empty Node process spawned until it writes a line, plus an empty page
 * navigated to until painted, in the same browser. The median of ROUNDS starts, with each kept.
 */

const PRODUCTS = 100_000;
const CARDS = 1_000;
const SETTLED = 10_000;
const ROUNDS = 5;
const WARM_STARTS = 3;
const DAY = 24 * 60 * 60 * 1000;
const configFile = fileURLToPath(new URL('../../vite.config.ts', import.meta.url));
const browserMain = fileURLToPath(new URL('../../electron/host/browser-main.ts', import.meta.url));
/** The flags `npm start` gives the host (electron/host/v8-flags.ts says why). */
const V8_FLAGS = ['--max-semi-space-size=16'];

interface Prepared {
  readonly dataDir: string;
  readonly rendererDir: string;
  readonly env: NodeJS.ProcessEnv;
  /** An empty page served as the host serves the kiosk's (./empty-page.ts). */
  readonly emptyUrl: string;
}

/** The data directory as a kiosk in service leaves it, and the host's environment for it. */
async function prepare(): Promise<Prepared> {
  const rendererDir = await mkdtemp(join(tmpdir(), 'kiosk-bench-cold-renderer-'));
  const dataDir = await mkdtemp(join(tmpdir(), 'kiosk-bench-cold-data-'));
  const compileCache = await mkdtemp(join(tmpdir(), 'kiosk-bench-cold-compile-cache-'));
  process.once('exit', () => {
    for (const dir of [rendererDir, dataDir, compileCache]) {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  await build({
    configFile,
    logLevel: 'silent',
    build: { outDir: rendererDir, emptyOutDir: true },
  });
  const sandbox = await startSandboxProcess(PRODUCTS);
  const account = sandbox.account('kiosk-all@sandbox.test');
  try {
    const services = await createKioskServices({
      dataDir,
      api: { baseUrl: sandbox.baseUrl, demo: false },
      settingsDir: dataDir,
      credentials: fixedCredentials({ ...account, origin: sandbox.baseUrl }, 'environment'),
      host: 'browser',
      adminPin: '1234',
      systemLocale: 'en-IE',
      connectivityProbeMs: 0,
    });
    try {
      const outcome = await services.parts.catalogSync.sync({ full: true });
      if (outcome.fullSync?.products !== PRODUCTS) {
        throw new Error(`the mirror holds ${outcome.fullSync?.products} products of ${PRODUCTS}`);
      }
      const database = services.parts.database;
      const cards = new CardCache(database);
      const readAt = Date.now();
      database.transaction(() => {
        for (let i = 0; i < CARDS; i += 1) {
          cards.record(
            {
              giftCardId: `gift_card_bench_${i}`,
              maskedNumber: `**** **** **** ${String(i).padStart(4, '0')}`,
              status: 'active',
              balance: 500,
              expiresOn: null,
            },
            readAt,
          );
        }
      });
      seedSettledDebits(database, SETTLED, { from: readAt - 30 * DAY, cards: CARDS });
    } finally {
      await services.close();
    }
  } finally {
    // From now on the service's address refuses every connection: the kiosk starts offline.
    await sandbox.stop();
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    KIOSK_DATA_DIR: dataDir,
    KIOSK_RENDERER_DIR: rendererDir,
    KIOSK_API_BASE_URL: sandbox.baseUrl,
    KIOSK_API_EMAIL: account.email,
    KIOSK_API_PASSWORD: account.password,
    KIOSK_VAULT: 'none',
    KIOSK_ADMIN_PIN: '1234',
    KIOSK_PORT: '0',
    // As build/start.sh sets it; filled by the start before the measured ones.
    NODE_COMPILE_CACHE: compileCache,
  };
  delete env['KIOSK_LOG'];
  const emptyUrl = (await startEmptyPage('as the kiosk')).url;
  return { dataDir, rendererDir, env, emptyUrl };
}

/** Resolves with the first stdout line that `match` accepts; rejects if the child exits first. */
function lineOf(child: ChildProcess, match: (line: string) => boolean): Promise<string> {
  if (child.stdout === null) throw new Error('child without stdout');
  const lines = createInterface({ input: child.stdout });
  return new Promise<string>((resolve, reject) => {
    const exited = (code: number | null) =>
      reject(new Error(`the process exited with ${code} before it was ready`));
    child.once('exit', exited);
    lines.on('line', (line) => {
      if (!match(line)) return;
      child.off('exit', exited);
      resolve(line);
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Epoch ms in this process, on the clock the page's `performance.timeOrigin + now()` uses. */
const epochNow = () => performance.timeOrigin + performance.now();

/** The frame after `selector` first matched, in epoch ms (see renderer.bench.ts). */
const paintedScript = (selector: string) => `(() => {
  const seen = () => {
    if (window.__painted !== undefined || !document.querySelector(${JSON.stringify(selector)})) return false;
    window.__painted = null;
    requestAnimationFrame(() => setTimeout(() => {
      window.__painted = performance.timeOrigin + performance.now();
    }, 0));
    return true;
  };
  const observer = new MutationObserver(() => { if (seen()) observer.disconnect(); });
  observer.observe(document, { subtree: true, childList: true });
})();`;

async function paintedAt(context: BrowserContext, url: string, selector: string) {
  const page = await context.newPage();
  await page.addInitScript(paintedScript(selector));
  await page.goto(url);
  await page.waitForFunction(
    () => typeof (globalThis as { __painted?: unknown }).__painted === 'number',
    undefined,
    { timeout: 60_000 },
  );
  const painted = await page.evaluate(
    () => (globalThis as unknown as { __painted: number }).__painted,
  );
  return { page, painted };
}

interface Start {
  /** To the host's "open" line: services started, the page can be asked for. */
  readonly toHost: number;
  readonly toAvailability: number;
  readonly toDebit: number;
  readonly empty: number;
}

async function coldStart(
  profile: BrowserContext,
  prepared: Prepared,
  card: number,
): Promise<Start> {
  // The baseline first: an empty Node process, then an empty page.
  const emptyStarted = epochNow();
  const empty = spawn(process.execPath, ['-e', 'process.stdout.write("ready\\n")'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await lineOf(empty, (line) => line === 'ready');
  const nodeReady = epochNow() - emptyStarted;
  await stopChild(empty);
  const pageStarted = epochNow();
  const blank = await paintedAt(profile, prepared.emptyUrl, 'p');
  await blank.page.close();

  const started = epochNow();
  const kiosk = spawn(process.execPath, [...V8_FLAGS, browserMain], {
    env: prepared.env,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    const open = await lineOf(kiosk, (line) => line.startsWith('kiosk: open '));
    const toHost = epochNow() - started;
    const url = open.slice('kiosk: open '.length);
    const token = new URLSearchParams(new URL(url).hash.slice(1)).get('token');
    if (token === null) throw new Error(`no token in the host's address ${url}`);
    const shown = await paintedAt(profile, url, '.product-row');
    try {
      // The same request the gift-card screen makes, on a card the kiosk read before.
      const reply = await shown.page.evaluate(
        async ({ token, request }) => {
          const response = await fetch('/ipc/debitGiftCard', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-kiosk-token': token },
            body: JSON.stringify(request),
          });
          const body = (await response.json()) as unknown;
          return { body, at: performance.timeOrigin + performance.now() };
        },
        {
          token,
          request: {
            requestId: randomUUID(),
            giftCardId: `gift_card_bench_${card}`,
            amount: 2.5,
            policy: 'prefer_online',
          },
        },
      );
      const body = reply.body as { ok?: boolean; value?: { debit?: { state?: string } } };
      if (body.ok !== true || body.value?.debit?.state !== 'pending') {
        throw new Error(`the offline debit was not accepted: ${JSON.stringify(body)}`);
      }
      return {
        toHost,
        toAvailability: shown.painted - started,
        toDebit: reply.at - started,
        empty: nodeReady + (blank.painted - pageStarted),
      };
    } finally {
      await shown.page.close();
    }
  } finally {
    await stopChild(kiosk);
  }
}

let startsRun: Promise<Start[]> | undefined;
function starts(): Promise<Start[]> {
  startsRun ??= (async () => {
    const prepared = await prepare();
    // One browser profile for every start, as the kiosk's window keeps its own: the renderer's
    // files and their compiled code are cached from the start before.
    const profileDir = await mkdtemp(join(tmpdir(), 'kiosk-bench-cold-profile-'));
    const profile = await chromium.launchPersistentContext(profileDir, {
      ...chromiumLaunchOptions,
      viewport: { width: 1920, height: 1080 },
    });
    try {
      // Starts unmeasured: they fill Node's compile cache, as the first start after an install or
      // an update does, and the browser's caches (Chromium keeps a script's compiled code from
      // its second load on and uses it from the third).
      for (let warm = 0; warm < WARM_STARTS; warm += 1) await coldStart(profile, prepared, warm);
      const measured: Start[] = [];
      for (let round = 1; round <= ROUNDS; round += 1) {
        measured.push(await coldStart(profile, prepared, WARM_STARTS + round));
      }
      return measured;
    } finally {
      await profile.close();
      rmSync(profileDir, { recursive: true, force: true });
    }
  })();
  return startsRun;
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

function figure(pick: (start: Start) => number): () => Promise<Measurement> {
  return async () => {
    const list = await starts();
    const value = list.map(pick);
    const baseline = list.map((start) => start.empty);
    return { value: median(value), baseline: median(baseline), runs: { value, baseline } };
  };
}

const benchmarks: Benchmark[] = [
  {
    name: 'cold start offline: process start to the host listening (vs an empty Node process + an empty page)',
    unit: 'ms',
    run: figure((start) => start.toHost),
  },
  {
    name: 'cold start offline: process start to availability answer on screen, 100,000 products (vs an empty Node process + an empty page)',
    unit: 'ms',
    run: figure((start) => start.toAvailability),
  },
  {
    name: 'cold start offline: process start to an offline debit accepted, 10,000 settled debits (vs an empty Node process + an empty page)',
    unit: 'ms',
    run: figure((start) => start.toDebit),
  },
];

export default benchmarks;
