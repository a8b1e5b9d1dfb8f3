import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Clock, systemClock } from '../../../electron/foundation/clock.ts';
import { CatalogSyncService } from '../../../electron/catalog/sync-service.ts';
import { kioskSchema } from '../../../electron/schema.ts';
import { openDatabase } from '../../../electron/storage/database.ts';
import {
  type Fixture,
  cursorOf,
  instrumented,
  mirrorCatalogue,
  queryOf,
  sandboxCatalogue,
  sorted,
  startFixture,
  storeActivity,
  INTEGRATION_TIMEOUT_MS,
} from './support.ts';

/** The lease term of the sync child (fixtures/sync-child.ts). */
const CHILD_LEASE_TTL_MS = 1_000;

class Crash extends Error {
  override readonly name = 'Crash';
}

describe(
  'catalogue mirror: interrupted syncs, the cursor, fault storms',
  { timeout: INTEGRATION_TIMEOUT_MS },
  () => {
    let fixture: Fixture;

    beforeAll(async () => {
      fixture = await startFixture({ products: 240, seed: 11 });
      await fixture.service().sync();
    }, INTEGRATION_TIMEOUT_MS);
    afterAll(async () => {
      await fixture?.close();
    });
    beforeEach(() => {
      fixture.control.clearFaults();
    });

    it('a full sync that crashes after page k leaves the old mirror in use, then resumes from page k+1', async () => {
      storeActivity(fixture.control, 150);
      const before = sorted(mirrorCatalogue(fixture.database));
      const asOfBefore = fixture.service().status().asOf;

      let pageCalls = 0;
      const crashing = instrumented(fixture.client(), (method, input) => {
        if (
          method === 'listCatalogProducts' &&
          queryOf(input)['limit'] !== 1 &&
          ++pageCalls === 4
        ) {
          throw new Crash('killed after page 3');
        }
      });
      await expect(fixture.service({ source: crashing }).sync({ full: true })).rejects.toThrow(
        Crash,
      );

      // Nothing of the half-built shadow is visible: the live mirror is exactly the previous one.
      const status = fixture.service().status();
      expect(sorted(mirrorCatalogue(fixture.database))).toEqual(before);
      expect(status.asOf).toBe(asOfBefore);
      expect(status.fullSyncInProgress?.pagesDone).toBe(3);
      expect(status.lastError?.message).toContain('killed after page 3');

      const pagesAsked: unknown[] = [];
      const recording = instrumented(fixture.client(), (method, input) => {
        if (method === 'listCatalogProducts' && queryOf(input)['limit'] !== 1)
          pagesAsked.push(queryOf(input)['page']);
      });
      const outcome = await fixture.service({ source: recording }).sync();

      expect(outcome.kind).toBe('full');
      expect(outcome.fullSync?.resumed).toBe(true);
      // The first walk went on from page 4: pages 1-3 were not fetched again.
      expect(pagesAsked[0]).toBe(4);
      expect(sorted(mirrorCatalogue(fixture.database))).toEqual(
        sorted(await sandboxCatalogue(fixture)),
      );
      expect(fixture.service().status()).toMatchObject({
        fullSyncInProgress: null,
        lastError: null,
      });
    });

    it('an aborted sync stops at once and the next one converges', async () => {
      storeActivity(fixture.control, 80);
      const controller = new AbortController();
      const service = fixture.service();
      service.events.on('progress', (progress) => {
        if (progress.phase === 'products' && progress.pagesDone === 2)
          controller.abort(new Crash('aborted'));
      });
      await expect(service.sync({ full: true, signal: controller.signal })).rejects.toThrow(
        'aborted',
      );
      expect(fixture.service().status().fullSyncInProgress?.pagesDone).toBe(2);

      const outcome = await fixture.service().sync();
      expect(outcome.fullSync?.resumed).toBe(true);
      expect(sorted(mirrorCatalogue(fixture.database))).toEqual(
        sorted(await sandboxCatalogue(fixture)),
      );
    });

    it('restarts an interrupted full sync from scratch once it is too old to resume', async () => {
      let pageCalls = 0;
      const crashing = instrumented(fixture.client(), (method, input) => {
        if (
          method === 'listCatalogProducts' &&
          queryOf(input)['limit'] !== 1 &&
          ++pageCalls === 2
        ) {
          throw new Crash('killed after page 1');
        }
      });
      await expect(fixture.service({ source: crashing }).sync({ full: true })).rejects.toThrow(
        Crash,
      );
      const outcome = await fixture.service({ resumeFullSyncWithinMs: 0 }).sync();
      expect(outcome.fullSync?.resumed).toBe(false);
      expect(sorted(mirrorCatalogue(fixture.database))).toEqual(
        sorted(await sandboxCatalogue(fixture)),
      );
    });

    it('a kiosk process SIGKILLed mid full sync is resumed by the next process', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-catalog-child-'));
      // Slow pages, so the process is surely killed in the middle.
      fixture.control.addFault({ kind: 'latency', route: 'listCatalogProducts', latencyMs: 60 });
      const { email, password } = fixture.credentials();
      const child = spawn(
        process.execPath,
        [
          fileURLToPath(new URL('./fixtures/sync-child.ts', import.meta.url)),
          fixture.sandbox.baseUrl,
          dataDir,
          email,
          password,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on('exit', (_code, signal) => resolve(signal)),
      );
      let lastPage = 0;
      for await (const line of createInterface({ input: child.stdout })) {
        const event = JSON.parse(line) as { phase?: string; pagesDone?: number } | 'done';
        if (event === 'done') break;
        if (event.phase === 'products' && (event.pagesDone ?? 0) >= 3) {
          lastPage = event.pagesDone ?? 0;
          child.kill('SIGKILL');
          break;
        }
      }
      expect(await exited).toBe('SIGKILL');
      expect(lastPage).toBeGreaterThanOrEqual(3);
      fixture.control.clearFaults();

      const database = openDatabase({ dataDir, schema: kioskSchema });
      try {
        const nextProcess = (clock: Clock) =>
          new CatalogSyncService({ database, source: fixture.client(), pageSize: 20, clock });
        // The killed process's lease (1 s) must lapse before another may sync.
        await expect(nextProcess(systemClock).sync()).rejects.toMatchObject({
          code: 'CATALOG_SYNC_BUSY',
        });
        // A process whose clock is a lease term ahead sees it lapsed, without waiting for it: the
        // child renewed its lease at the latest when it was killed, before this moment.
        const service = nextProcess({
          now: () => systemClock.now() + CHILD_LEASE_TTL_MS,
          sleep: systemClock.sleep,
        });
        expect(service.status().ready).toBe(false);
        expect(service.status().fullSyncInProgress?.pagesDone).toBeGreaterThanOrEqual(lastPage);
        const outcome = await service.sync();
        expect(outcome.fullSync?.resumed).toBe(true);
        expect(sorted(mirrorCatalogue(database))).toEqual(sorted(await sandboxCatalogue(fixture)));
      } finally {
        database.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });

    it('keeps the same until on every page and never stores it before the whole window is applied', async () => {
      const changes = storeActivity(fixture.control, 120);
      expect(changes.length).toBeGreaterThan(100);
      const cursor = cursorOf(fixture.database);

      // 1. Killed while reading the window's pages (page size 50: three pages).
      const untils: unknown[] = [];
      let changePages = 0;
      const crashOnPage3 = instrumented(fixture.client(), (method, input) => {
        if (method !== 'listCatalogChanges') return;
        untils.push(queryOf(input)['until']);
        if (++changePages === 3) throw new Crash('killed before page 3');
      });
      await expect(fixture.service({ source: crashOnPage3 }).sync()).rejects.toThrow(Crash);
      expect(cursorOf(fixture.database)).toBe(cursor);
      // Page 1 lets the service choose the window's end; every later page repeats it.
      expect(untils[0]).toBeUndefined();
      expect(typeof untils[1]).toBe('string');
      expect(untils[2]).toBe(untils[1]);

      // 2. Killed while applying: some products are written, the cursor still is not.
      let refetches = 0;
      const crashWhileApplying = instrumented(fixture.client(), (method, input) => {
        if (
          method === 'listCatalogProducts' &&
          queryOf(input)['updatedSince'] !== undefined &&
          ++refetches === 2
        ) {
          throw new Crash('killed while applying');
        }
      });
      await expect(fixture.service({ source: crashWhileApplying }).sync()).rejects.toThrow(Crash);
      expect(cursorOf(fixture.database)).toBe(cursor);

      // 3. Killed just before the last transaction (while fetching the renamed referentials).
      const crashBeforeCommit = instrumented(fixture.client(), (method) => {
        if (
          method === 'listShops' ||
          method === 'listCategories' ||
          method === 'listCharacteristics'
        ) {
          throw new Crash('killed before the last commit');
        }
      });
      if (changes.some((change) => ['shop', 'category', 'characteristic'].includes(change.type))) {
        await expect(fixture.service({ source: crashBeforeCommit }).sync()).rejects.toThrow(Crash);
        expect(cursorOf(fixture.database)).toBe(cursor);
      }

      // The window read again from the old since, applied again: the same catalogue.
      const outcome = await fixture.service().sync();
      expect(outcome.window?.since).toBe(cursor);
      expect(outcome.window?.changes).toBe(changes.length);
      expect(cursorOf(fixture.database)).toBe(outcome.window?.until);
      expect(sorted(mirrorCatalogue(fixture.database))).toEqual(
        sorted(await sandboxCatalogue(fixture)),
      );
    });

    it('converges through 429 and 503 storms during a full sync and a change-feed sync', async () => {
      const storm = () => [
        fixture.control.addFault({
          kind: 'rate-limit',
          probability: 0.35,
          retryAfterSeconds: 0,
          count: 30,
        }),
        fixture.control.addFault({ kind: 'unavailable', probability: 0.25, count: 20 }),
      ];
      storeActivity(fixture.control, 100);
      let faults = storm();
      const full = await fixture.service().sync({ full: true });
      fixture.control.clearFaults();
      expect(full.kind).toBe('full');
      expect(faults.reduce((sum, fault) => sum + fault.fired, 0)).toBeGreaterThan(5);
      expect(sorted(mirrorCatalogue(fixture.database))).toEqual(
        sorted(await sandboxCatalogue(fixture)),
      );

      storeActivity(fixture.control, 150);
      faults = storm();
      const changes = await fixture.service().sync();
      fixture.control.clearFaults();
      expect(changes.kind).toBe('changes');
      expect(faults.reduce((sum, fault) => sum + fault.fired, 0)).toBeGreaterThan(2);
      expect(sorted(mirrorCatalogue(fixture.database))).toEqual(
        sorted(await sandboxCatalogue(fixture)),
      );
    });

    it('tells the sync of another process apart: one sync per data directory', async () => {
      const other = fixture.openAnother();
      const first = new CatalogSyncService({
        database: other,
        source: fixture.client(),
        pageSize: 50,
      });
      fixture.control.addFault({ kind: 'latency', route: 'listCatalogProducts', latencyMs: 30 });
      const running = first.sync({ full: true });
      await new Promise((resolve) => first.events.on('progress', resolve));
      await expect(fixture.service().sync()).rejects.toMatchObject({ code: 'CATALOG_SYNC_BUSY' });
      await running;
      fixture.control.clearFaults();
    });
  },
);
