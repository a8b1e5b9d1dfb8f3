/**
 * The packed package installed into a small host app (test/consumer/), as an integrator's
 * Electron app installs it: it type-checks under the host's strict settings with both module
 * resolutions, runs with nothing but its public entry points, and its commands run from
 * node_modules.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/index.ts';
import { ROOT, npm, outcome, packTarball } from './packed.ts';

describe('commerce-kiosk installed from its tarball into a host app', () => {
  let work: string;
  let host: string;
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'kiosk-consumer-'));
    host = join(work, 'host');
    await cp(join(ROOT, 'test', 'consumer'), host, { recursive: true });
    const tarball = await packTarball();
    // Scripts off: keytar's native build is the integrator's (electron-rebuild); nothing here needs it.
    await npm(host, ['install', '--prefer-offline', '--ignore-scripts', tarball]);
    sandbox = await startSandbox({ port: 0 });
  }, 300_000);

  afterAll(async () => {
    await sandbox?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  const tsc = (project: string) =>
    outcome(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project], { cwd: host });

  it.each(['tsconfig.json', 'tsconfig.bundler.json'])(
    'type-checks with %s: strict, no skipLibCheck, no .ts imports',
    async (project) => {
      const result = await tsc(project);
      expect(result.stdout + result.stderr).toBe('');
      expect(result.code).toBe(0);
    },
    120_000,
  );

  it('runs on the public entry points only: a shop list and one debit over IPC, then nothing left open', async () => {
    const result = await outcome(process.execPath, ['smoke.ts'], { cwd: host, timeout: 90_000 });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const seen = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(seen).toMatchObject({
      page: { url: 'commerce-kiosk://kiosk/index.html', status: 200 },
      shops: expect.any(Number),
      debit: { state: 'applied', settled: true },
      again: { replayed: true, id: seen['debitId'] },
      ledger: [2.5],
    });
    expect(seen['shops']).toBeGreaterThan(0);
  }, 120_000);

  it('keeps its internals out of reach: only the exports map resolves', async () => {
    const result = await outcome(
      process.execPath,
      ['--input-type=module', '-e', "await import('commerce-kiosk/dist/electron/kiosk/index.js')"],
      { cwd: host },
    );
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });

  it('runs kioskctl from node_modules, against the sandbox', async () => {
    const help = await outcome('npx', ['--no-install', 'kioskctl', '--help'], { cwd: host });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('kioskctl [global flags] api <operationId>');

    const account = sandbox.accounts[0]!;
    const shops = await outcome('npx', ['--no-install', 'kioskctl', 'api', 'listShops'], {
      cwd: host,
      env: {
        KIOSK_API_BASE_URL: sandbox.baseUrl,
        KIOSK_API_EMAIL: account.email,
        KIOSK_API_PASSWORD: account.password,
        KIOSK_DATA_DIR: join(work, 'kioskctl-data'),
      },
    });
    expect(shops.stderr).toBe('');
    expect(shops.code).toBe(0);
    expect(shops.stdout).toMatch(/shop_/);
  }, 60_000);
});
