import { rmSync } from 'node:fs';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { build, preview } from 'vite';
import { startKiosk } from '../e2e/support/kiosk-host.ts';
import type { Benchmark, Measurement } from './benchmark.ts';
import { chromiumLaunchOptions } from '../e2e/support/chromium.ts';
import { startEmptyPage } from './empty-page.ts';

/**
 * The kiosk UI as staff meet it: how much the renderer weighs on the wire, how long from
 * navigation until the first screen can be used (against an empty page in the same browser),
 * and whether a 5,000-row result list scrolls without dropping frames (against the same page
 * standing still).
 */

const configFile = fileURLToPath(new URL('../../vite.config.ts', import.meta.url));
const ROUNDS = 9;

let built: Promise<string> | undefined;
/** One production build for every renderer benchmark, in its own folder (dist/ is the tests'). */
function productionBuild(): Promise<string> {
  built ??= (async () => {
    const outDir = await mkdtemp(join(tmpdir(), 'kiosk-bench-renderer-'));
    await build({ configFile, logLevel: 'silent', build: { outDir, emptyOutDir: true } });
    // Synchronous: nothing asynchronous runs once the process is exiting.
    process.once('exit', () => rmSync(outDir, { recursive: true, force: true }));
    return outDir;
  })();
  return built;
}

async function launch(): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions);
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

async function bundleSize(): Promise<Measurement> {
  const outDir = await productionBuild();
  let bytes = 0;
  const files = await readdir(outDir, { recursive: true, withFileTypes: true });
  for (const file of files) {
    if (!file.isFile() || !/\.(js|css|html)$/.test(file.name)) continue;
    bytes += gzipSync(await readFile(join(file.parentPath, file.name)), { level: 9 }).length;
  }
  return { value: bytes };
}

const PAINTED = 'first-screen-painted';

/**
 * Marks, in the page, the frame after `selector` first matched: painted, as staff would see it.
 * Measured in the page's own clock from the navigation's start, so Playwright's round trips
 * (waiting for `load`) count neither in the kiosk's figure nor in the empty page's; said on the
 * console, so the bench waits without polling in the page (a poll runs Playwright's own script on
 * the page's main thread while it loads, which a longer load pays more of).
 */
const paintedScript = (selector: string) => `(() => {
  const seen = () => {
    if (window.__painted !== undefined || !document.querySelector(${JSON.stringify(selector)})) return false;
    window.__painted = null;
    requestAnimationFrame(() => setTimeout(() => { window.__painted = performance.now(); console.debug(${JSON.stringify(PAINTED)}); }, 0));
    return true;
  };
  const observer = new MutationObserver(() => { if (seen()) observer.disconnect(); });
  observer.observe(document, { subtree: true, childList: true });
})();`;

/** What the kiosk shows instead, when its first row never comes: the failure to chase. */
interface PageText {
  readonly body: { readonly innerText: string };
}

/** From navigation to the frame after `usable` matched, in the page's own clock. */
async function timeFirstScreen(context: BrowserContext, url: string, usable: string) {
  const page = await context.newPage();
  try {
    await page.addInitScript(paintedScript(usable));
    const painted = page.waitForEvent('console', {
      predicate: (message) => message.text() === PAINTED,
      timeout: 30_000,
    });
    // Awaited below; a failed navigation must not leave it rejecting unheard.
    painted.catch(() => undefined);
    await page.goto(url);
    try {
      await painted;
    } catch (cause) {
      const shown = await page
        .evaluate(() => (globalThis as unknown as PageText).body.innerText)
        .catch(() => '(the page did not answer)');
      throw new Error(`no ${usable} painted within 30 s; the page shows: ${shown}`, { cause });
    }
    return await page.evaluate(() => (globalThis as unknown as { __painted: number }).__painted);
  } finally {
    await page.close();
  }
}

interface FirstScreens {
  /** Each load in a fresh context: nothing cached, the page's code compiled from its text. */
  readonly cold: Measurement;
  /** In one browser profile that loaded the kiosk before: its files and their compiled code kept. */
  readonly cached: Measurement;
  /** The same loads, against an empty page served without the kiosk's response headers. */
  readonly cachedVsPlain: Measurement;
}

let firstScreens: Promise<FirstScreens> | undefined;
function firstUsableScreens(): Promise<FirstScreens> {
  firstScreens ??= (async () => {
    const rendererDir = await productionBuild();
    const kiosk = await startKiosk({ rendererDir });
    // A kiosk in service answers from its mirror: the first full synchronisation (started with
    // the services) is over before the first screen is timed, not racing it in the same process.
    if (!kiosk.services.parts.catalogQueries.ready) {
      await kiosk.services.parts.catalogSync.sync({ full: true });
    }
    const empty = await startEmptyPage('as the kiosk');
    const plain = await startEmptyPage('plain');
    const profileDir = await mkdtemp(join(tmpdir(), 'kiosk-bench-profile-'));
    const browser = await launch();
    const profile = await chromium.launchPersistentContext(profileDir, {
      ...chromiumLaunchOptions,
      viewport: { width: 1920, height: 1080 },
    });
    try {
      // The kiosk is usable when its first product row can be tapped: main answered, data shown.
      const fresh = async (url: string, usable: string) => {
        const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
        try {
          return await timeFirstScreen(context, url, usable);
        } finally {
          await context.close();
        }
      };
      const cold = { value: [] as number[], baseline: [] as number[] };
      const cached = { value: [] as number[], baseline: [] as number[] };
      const plainBaseline: number[] = [];
      await fresh(kiosk.url, '.product-row');
      await fresh(empty.url, 'p');
      // Chromium keeps a script's compiled code from its second load on, and uses it from the
      // third: three loads, as a kiosk's window has done by its fourth start.
      for (let load = 0; load < 3; load += 1) {
        await timeFirstScreen(profile, kiosk.url, '.product-row');
      }
      await timeFirstScreen(profile, empty.url, 'p');
      await timeFirstScreen(profile, plain.url, 'p');
      for (let round = 0; round < ROUNDS; round++) {
        cold.value.push(await fresh(kiosk.url, '.product-row'));
        cold.baseline.push(await fresh(empty.url, 'p'));
        cached.value.push(await timeFirstScreen(profile, kiosk.url, '.product-row'));
        cached.baseline.push(await timeFirstScreen(profile, empty.url, 'p'));
        plainBaseline.push(await timeFirstScreen(profile, plain.url, 'p'));
      }
      const measurement = (runs: typeof cold): Measurement => ({
        value: median(runs.value),
        baseline: median(runs.baseline),
        runs,
      });
      return {
        cold: measurement(cold),
        cached: measurement(cached),
        cachedVsPlain: measurement({ value: cached.value, baseline: plainBaseline }),
      };
    } finally {
      await profile.close();
      await browser.close();
      rmSync(profileDir, { recursive: true, force: true });
      await empty.close();
      await plain.close();
      await kiosk.close();
    }
  })();
  return firstScreens;
}

/**
 * Stands in for the preload: the renderer takes `window.kiosk` when it exists. Only the product
 * search answers (5,000 hits at once); everything else is refused, which the screens show as
 * errors without slowing the list.
 */
const fakeKioskScript = `(() => {
  const hits = Array.from({ length: 5000 }, (_, i) => ({
    uuid: 'prod_' + i, name: 'Lave-linge hublot ' + i + ' kg', reference: 'LL-' + i,
    ean: String(3760000000000 + i), category: null, displayedOnline: true,
    priceRange: { minInclTax: 199 + (i % 300), maxInclTax: 249 + (i % 300), currency: 'EUR' },
    promotionPriceRange: i % 7 === 0 ? { minInclTax: 149, maxInclTax: 149, currency: 'EUR' } : null,
    availableItemsCount: i % 5, stock: { available: i % 5 > 0, totalQuantity: i % 5 },
    mainImage: null, shopItems: null,
  }));
  const replies = {
    searchProducts: (r) => ({ source: 'mirror', asOf: new Date().toISOString(), hits: (r.offset || 0) === 0 ? hits : [] }),
  };
  window.kiosk = new Proxy({}, {
    get: (_, name) => {
      if (typeof name !== 'string' || name === 'then') return undefined;
      if (/^on[A-Z]/.test(name)) return () => () => {};
      return async (request) => name in replies
        ? { ok: true, value: replies[name](request || {}) }
        : { ok: false, error: { code: 'BENCH_NOT_PROVIDED', message: name } };
    },
  });
})();`;

/** What the in-page measurement uses (this project has no DOM types; the page has them). */
interface ScrollingList {
  scrollTop: number;
  querySelectorAll(selector: string): { readonly length: number };
}
interface AnimationFrames {
  requestAnimationFrame(callback: (time: number) => void): number;
}

interface ScrollFrames {
  readonly idle: number[];
  readonly scrolling: number[];
  readonly rows: number;
}

let scrollRun: Promise<ScrollFrames> | undefined;
/** One run feeds both scroll figures: the frame intervals standing still, then scrolling. */
function scrollFrames(): Promise<ScrollFrames> {
  scrollRun ??= (async () => {
    const outDir = await productionBuild();
    const server = await preview({
      configFile,
      logLevel: 'silent',
      build: { outDir },
      preview: { host: '127.0.0.1', port: 0 },
    });
    const browser = await launch();
    try {
      const url = server.resolvedUrls?.local[0];
      if (!url) throw new Error('vite preview did not report its URL');
      const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
      await page.addInitScript(fakeKioskScript);
      await page.goto(url);
      await page.getByText('Products shown: 5,000 (more below)').waitFor();
      return await page.locator('.virtual-list').evaluate(async (element) => {
        const list = element as unknown as ScrollingList;
        const { requestAnimationFrame } = globalThis as unknown as AnimationFrames;
        const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
        const frames = 180;
        // A fast fling: about 15 rows a frame, 2,700 rows in three seconds.
        const step = 1_560;
        const idle: number[] = [];
        const scrolling: number[] = [];
        let last = await frame();
        for (let i = 0; i < frames; i++) {
          const now = await frame();
          idle.push(now - last);
          last = now;
        }
        last = await frame();
        for (let i = 0; i < frames; i++) {
          list.scrollTop += step;
          const now = await frame();
          scrolling.push(now - last);
          last = now;
        }
        return { idle, scrolling, rows: list.querySelectorAll('li').length };
      });
    } finally {
      await browser.close();
      await server.close();
    }
  })();
  return scrollRun;
}

/** Frames the display would have shown but the page did not draw, against the idle cadence. */
async function framesDropped(): Promise<Measurement> {
  const { idle, scrolling, rows } = await scrollFrames();
  if (rows > 60) throw new Error(`${rows} rows in the DOM: the list is not windowed`);
  const interval = median(idle);
  const dropped = scrolling.reduce(
    (sum, delta) => sum + Math.max(0, Math.round(delta / interval) - 1),
    0,
  );
  return { value: dropped };
}

async function frameIntervalP95(): Promise<Measurement> {
  const { idle, scrolling } = await scrollFrames();
  return { value: percentile(scrolling, 95), baseline: percentile(idle, 95) };
}

const benchmarks: Benchmark[] = [
  { name: 'renderer: production bundle (gzip, js+css+html)', unit: 'bytes', run: bundleSize },
  {
    name: "renderer: navigation to first usable screen in Chromium, its files and code cached as a kiosk window has them (baseline: an empty page with the kiosk page's headers)",
    unit: 'ms',
    run: async () => (await firstUsableScreens()).cached,
  },
  {
    name: 'renderer: navigation to first usable screen in Chromium, files and code cached (baseline: an empty page without headers)',
    unit: 'ms',
    run: async () => (await firstUsableScreens()).cachedVsPlain,
  },
  {
    name: "renderer: navigation to first usable screen in Chromium, nothing cached (baseline: an empty page with the kiosk page's headers)",
    unit: 'ms',
    run: async () => (await firstUsableScreens()).cold,
  },
  {
    name: 'renderer: frames dropped scrolling 180 frames of a 5,000-row list',
    unit: 'frames',
    run: framesDropped,
  },
  {
    name: 'renderer: p95 frame interval scrolling a 5,000-row list (baseline: standing still)',
    unit: 'ms',
    run: frameIntervalP95,
  },
];

export default benchmarks;
