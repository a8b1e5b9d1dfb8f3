import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SETTINGS_FILE } from '../../../electron/kiosk/settings-store.ts';
import { freePort } from '../../support/free-port.ts';
import { type KioskFixture, startKioskFixture } from '../kiosk/support.ts';

/**
 * The settings file's `telemetry` key turns the scrape endpoint on (the administrator's way), and
 * the environment still wins over it key by key (the deployment's way).
 */
let settingsDir: string;
let fixtures: KioskFixture[] = [];
let filePort: number;

beforeAll(async () => {
  settingsDir = await mkdtemp(join(tmpdir(), 'kiosk-telemetry-settings-'));
  filePort = await freePort();
  await writeFile(
    join(settingsDir, SETTINGS_FILE),
    JSON.stringify({ telemetry: { prometheusPort: filePort, kioskId: 'from-the-file' } }),
  );
});

afterAll(async () => {
  await Promise.all(fixtures.map((fixture) => fixture.close()));
  await rm(settingsDir, { recursive: true, force: true });
});

it('the settings file turns the Prometheus endpoint on, with its kiosk id', async () => {
  const fixture = await startKioskFixture({ services: { settingsDir } });
  fixtures.push(fixture);
  expect(fixture.services.parts.telemetry.prometheusUrl).toBe(
    `http://127.0.0.1:${filePort}/metrics`,
  );
  const text = await (await fetch(fixture.services.parts.telemetry.prometheusUrl!)).text();
  expect(text).toMatch(/^kiosk_build_info\{.*kiosk_id="from-the-file"/m);
  await fixture.close();
  fixtures = [];
});

it('the environment wins: off turns the endpoint of the file off', async () => {
  const fixture = await startKioskFixture({
    services: { settingsDir, environment: { KIOSK_METRICS_PORT: 'off' } },
  });
  fixtures.push(fixture);
  expect(fixture.services.parts.telemetry.prometheusUrl).toBeNull();
});
