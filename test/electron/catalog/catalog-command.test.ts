import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../electron/api/client.ts';
import {
  type CatalogCommandContext,
  runCatalogCommand,
} from '../../../electron/cli/catalog-command.ts';
import { BARE_ACCOUNT, type Fixture, INTEGRATION_TIMEOUT_MS, startFixture } from './support.ts';

describe('kioskctl catalog', { timeout: INTEGRATION_TIMEOUT_MS }, () => {
  let fixture: Fixture;
  let dataDir: string;

  beforeAll(async () => {
    fixture = await startFixture({ products: 120, seed: 3 });
    dataDir = mkdtempSync(join(tmpdir(), 'kioskctl-catalog-'));
  }, INTEGRATION_TIMEOUT_MS);
  afterAll(async () => {
    await fixture?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function run(
    args: string[],
    {
      email = 'kiosk-all@sandbox.test',
      tty = false,
      env = undefined as Record<string, string> | undefined,
    } = {},
  ) {
    let stdout = '';
    let stderr = '';
    const { password } = fixture.credentials(email);
    const context: CatalogCommandContext = {
      io: {
        stdout: (text) => void (stdout += text),
        stderr: (text) => void (stderr += text),
        env: env ?? {
          KIOSK_DATA_DIR: dataDir,
          KIOSK_API_EMAIL: email,
          KIOSK_API_PASSWORD: password,
        },
      },
      stderrIsTty: tty,
      createClient: (options) =>
        createApiClient({ ...options, retry: { backoff: { baseMs: 5, capMs: 20 } } }),
    };
    const code = await runCatalogCommand(['catalog', ...args], context);
    return { code, stdout, stderr };
  }

  it('syncs with a progress bar on a terminal and prints the result as JSON', async () => {
    const { code, stdout, stderr } = await run(['sync', '--base-url', fixture.sandbox.baseUrl], {
      tty: true,
    });
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as {
      kind: string;
      status: { ready: boolean; size: { products: number } };
    };
    expect(result.kind).toBe('full');
    expect(result.status.ready).toBe(true);
    expect(result.status.size.products).toBeGreaterThan(100);
    expect(stderr).toContain('\r');
    expect(stderr).toMatch(/full sync .*%/);

    const again = await run(['sync', '--base-url', fixture.sandbox.baseUrl]);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('');
    expect((JSON.parse(again.stdout) as { kind: string }).kind).toBe('changes');
    const forced = await run(['sync', '--full', '--base-url', fixture.sandbox.baseUrl]);
    expect((JSON.parse(forced.stdout) as { kind: string }).kind).toBe('full');
  });

  it('prints the status without the network', async () => {
    const { code, stdout } = await run(['status']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      ready: true,
      access: { mode: 'mirror' },
      fullSyncInProgress: null,
    });
  });

  it('searches the mirror by shop and availability', async () => {
    const shop = 'shop_paris-rivoli';
    const { code, stdout } = await run([
      'search',
      'lave',
      'linge',
      '--shop',
      shop,
      '--available-only',
    ]);
    expect(code).toBe(0);
    const answer = JSON.parse(stdout) as {
      source: string;
      hits: {
        name: string;
        shopItems: { shop: { id: string }; availability: { available: boolean } }[];
      }[];
    };
    expect(answer.source).toBe('mirror');
    for (const hit of answer.hits) {
      expect(hit.name).toMatch(/lave-linge/i);
      expect(
        hit.shopItems.some((item) => item.shop.id === shop && item.availability.available),
      ).toBe(true);
    }
  });

  it('answers status and search from a synced mirror without credentials (SSH, no keyring)', async () => {
    // A base URL is configured, but no credentials can be read: no env pair, no vault.
    const env = { KIOSK_DATA_DIR: dataDir, KIOSK_API_BASE_URL: fixture.sandbox.baseUrl };
    const noKeyring = { ...env, KIOSK_VAULT: 'none' };
    const status = await run(['status'], { env: noKeyring });
    expect(status.stderr).toBe('');
    expect(status.code).toBe(0);
    const search = await run(['search', 'lave', 'linge'], { env: noKeyring });
    expect(search.stderr).toBe('');
    expect(search.code).toBe(0);
    const answer = JSON.parse(search.stdout) as { source: string; hits: unknown[] };
    expect(answer.source).toBe('mirror');
    expect(answer.hits.length).toBeGreaterThan(0);

    // A live query does need them, and says so before asking anything.
    const fresh = await run(['search', 'lave', '--fresh'], { env: noKeyring });
    expect(fresh.code).toBe(2);
    expect(JSON.parse(fresh.stderr)).toMatchObject({ error: { code: 'CONFIG' } });
  });

  it('reports a 403 with the missing scopes, and usage errors, as one JSON line', async () => {
    fixture.control.setScopes(BARE_ACCOUNT, ['products:read', 'referentials:read']);
    const other = mkdtempSync(join(tmpdir(), 'kioskctl-catalog-403-'));
    try {
      const refused = await run(
        ['sync', '--data-dir', other, '--base-url', fixture.sandbox.baseUrl],
        {
          email: BARE_ACCOUNT,
        },
      );
      expect(refused.code).toBe(3);
      expect(JSON.parse(refused.stderr)).toMatchObject({
        error: { code: 'CATALOG_FORBIDDEN', status: 403, missingScopes: ['stock:read'] },
      });
    } finally {
      rmSync(other, { recursive: true, force: true });
    }

    const usage = await run(['frobnicate']);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stderr)).toMatchObject({ error: { code: 'USAGE' } });
    expect((await run(['status', '--full'])).code).toBe(2);
    expect((await run(['sync'])).code).toBe(2);
  });
});
