import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../../support/free-port.ts';
import { type KioskFixture, startKioskFixture } from '../kiosk/support.ts';

/**
 * The scrape endpoint as an agent on the kiosk reads it: a failed catalogue sync shows as failing
 * with its code until a sync succeeds, and nothing but GET /metrics is served.
 */
let fixture: KioskFixture;
let url: string;

beforeAll(async () => {
  fixture = await startKioskFixture({
    services: { environment: { KIOSK_METRICS_PORT: String(await freePort()) } },
  });
  url = fixture.services.parts.telemetry.prometheusUrl!;
});
afterAll(() => fixture?.close());

const scrape = async () => (await fetch(url)).text();
const sample = (text: string, series: RegExp) =>
  text
    .split('\n')
    .find((line) => series.test(line))
    ?.split(' ')
    .at(-1);

it('a failed sync is failing with its code, until one succeeds', async () => {
  fixture.sandbox.control!.addFault({
    kind: 'invalid-request',
    route: 'listCatalogProducts',
    count: 1,
  });
  await expect(fixture.services.parts.catalogSync.sync({ full: true })).rejects.toThrow();
  let text = await scrape();
  expect(sample(text, /^kiosk_catalog_sync_failing\{code="INVALID_REQUEST"/)).toBe('1');
  expect(sample(text, /^kiosk_catalog_syncs_total\{result="failed",code="INVALID_REQUEST"/)).toBe(
    '1',
  );

  await fixture.services.parts.catalogSync.sync({ full: true });
  text = await scrape();
  expect(sample(text, /^kiosk_catalog_sync_failing\{(?!code)/)).toBe('0');
  // The failed code's series goes back to 0 too: no code left at 1 beside the 0.
  expect(sample(text, /^kiosk_catalog_sync_failing\{code="INVALID_REQUEST"/)).toBe('0');
  expect(sample(text, /^kiosk_catalog_syncs_total\{kind="full",result="ok"/)).toBe('1');
});

it('serves GET /metrics only', async () => {
  expect((await fetch(url.replace('/metrics', '/'))).status).toBe(404);
  expect((await fetch(url, { method: 'POST' })).status).toBe(404);
});
