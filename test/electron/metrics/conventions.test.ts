import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrometheusEndpoint } from '../../../electron/metrics/prometheus-endpoint.ts';
import { freePort } from '../../support/free-port.ts';
import { type KioskFixture, startKioskFixture } from '../kiosk/support.ts';

/**
 * The scrape as a fleet operator reads it: Debian's `promtool check metrics` (Prometheus's own
 * linter) passes on it, every counter and gauge is there from the first scrape, and its families
 * are the ones docs/operating.md's tables name, no more, no fewer.
 */

const operating = fileURLToPath(new URL('../../../docs/operating.md', import.meta.url));

interface Family {
  readonly type: string;
  readonly help: string;
  /** The sample lines. */
  readonly samples: string[];
}

/** The families of a scrape (text format 0.0.4), by name. */
function familiesOf(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const helps = new Map<string, string>();
  for (const line of text.split('\n')) {
    const help = /^# HELP (\S+) (.*)$/.exec(line);
    if (help) helps.set(help[1]!, help[2]!);
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type)
      families.set(type[1]!, { type: type[2]!, help: helps.get(type[1]!) ?? '', samples: [] });
    if (line === '' || line.startsWith('#')) continue;
    const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)![0];
    const family = [...families.entries()].find(
      ([family]) => name === family || /^_(bucket|sum|count)$/.test(name.slice(family.length)),
    );
    family?.[1].samples.push(line);
  }
  return families;
}

/** The rows of the tables of the "Fleet metrics" section: name, type, and whether it may be absent. */
function documentedFamilies(): Map<string, { type: string; optional: boolean }> {
  const text = readFileSync(operating, 'utf8');
  const section = text.slice(text.indexOf('## Fleet metrics'));
  const body = section.slice(0, section.indexOf('\n## ', 1));
  const rows = new Map<string, { type: string; optional: boolean }>();
  for (const line of body.split('\n')) {
    const row = /^\| `([a-z0-9_:]+)` +\| (counter|gauge|histogram) +\| (.*)\|$/.exec(line);
    if (!row) continue;
    rows.set(row[1]!, {
      type: row[2]!,
      // A histogram appears with its first observation; a gauge with no value yet is absent.
      optional: row[2] === 'histogram' || row[3]!.includes('absent until'),
    });
  }
  return rows;
}

function promtool(text: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/promtool', ['check', 'metrics'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(text);
  });
}

describe('the scrape follows the Prometheus conventions', { timeout: 120_000 }, () => {
  let fixture: KioskFixture;
  let url: string;
  let first: string;

  beforeAll(async () => {
    fixture = await startKioskFixture({
      services: { environment: { KIOSK_METRICS_PORT: String(await freePort()) } },
    });
    url = fixture.services.parts.telemetry.prometheusUrl!;
    first = await (await fetch(url)).text();
  }, 60_000);
  afterAll(() => fixture?.close());

  it('promtool check metrics passes on the first scrape', async () => {
    expect(familiesOf(first).size).toBeGreaterThan(25);
    const { code, output } = await promtool(first);
    expect(output).toBe('');
    expect(code).toBe(0);
  });

  it("every counter and gauge of the docs' tables is there at the first scrape, and nothing else", () => {
    const documented = documentedFamilies();
    expect(documented.size).toBeGreaterThan(25);
    const scraped = familiesOf(first);
    for (const [name, { type, optional }] of documented) {
      if (optional) continue;
      expect(scraped.get(name)?.type, name).toBe(type);
      expect(scraped.get(name)!.samples.length, name).toBeGreaterThan(0);
    }
    for (const name of scraped.keys()) expect(documented.has(name), name).toBe(true);
    // The counters that were absent until their first event: every known label set at 0.
    const samples = (name: string) => scraped.get(name)!.samples;
    expect(samples('kiosk_outbox_debits_accepted_total')).toContainEqual(
      expect.stringMatching(/^kiosk_outbox_debits_accepted_total\{connectivity="offline".*\} 0$/),
    );
    expect(samples('kiosk_print_jobs_total')).toContainEqual(
      expect.stringMatching(/^kiosk_print_jobs_total\{outcome="failed".*\} 0$/),
    );
    expect(samples('kiosk_api_retries_total')).toContainEqual(
      expect.stringMatching(/^kiosk_api_retries_total\{operation="debitGiftCard".*\} 0$/),
    );
    expect(samples('kiosk_api_rate_limited_total')).toContainEqual(
      expect.stringMatching(/^kiosk_api_rate_limited_total\{operation="debitGiftCard".*\} 0$/),
    );
    expect(samples('kiosk_api_requests_total')).toContainEqual(
      expect.stringMatching(
        /^kiosk_api_requests_total\{operation="debitGiftCard",status_class="5xx".*\} 0$/,
      ),
    );
  });

  it('base units in the names and the HELP texts; no aggregate series; no scope labels', () => {
    const scraped = familiesOf(first);
    for (const [name, family] of scraped) {
      const unit = /_(seconds|bytes)(_total)?$/.exec(name)?.[1];
      if (unit !== undefined) expect(family.help, name).toContain(unit);
    }
    expect(scraped.get('kiosk_outbox_debits')!.samples).not.toContainEqual(
      expect.stringContaining('state="total"'),
    );
    expect(first).not.toContain('otel_scope_');
  });

  it('after a failed then a good sync: the histograms appear, the failed code is back at 0, promtool still passes', async () => {
    fixture.sandbox.control!.addFault({
      kind: 'invalid-request',
      route: 'listCatalogProducts',
      count: 1,
    });
    await expect(fixture.services.parts.catalogSync.sync({ full: true })).rejects.toThrow();
    const failing = familiesOf(await (await fetch(url)).text()).get('kiosk_catalog_sync_failing');
    expect(failing!.samples).toEqual([
      expect.stringMatching(/^kiosk_catalog_sync_failing\{kiosk_id=.*\} 0$/),
      expect.stringMatching(/^kiosk_catalog_sync_failing\{code="INVALID_REQUEST",.*\} 1$/),
    ]);
    await fixture.services.parts.catalogSync.sync({ full: true });
    const text = await (await fetch(url)).text();
    expect((await promtool(text)).code).toBe(0);
    const scraped = familiesOf(text);
    const documented = documentedFamilies();
    for (const name of [
      'kiosk_api_request_duration_seconds',
      'kiosk_catalog_sync_duration_seconds',
      'kiosk_catalog_mirror_age_seconds',
      'kiosk_clock_offset_seconds',
    ]) {
      expect(scraped.get(name)?.type, name).toBe(documented.get(name)?.type);
    }
    for (const name of scraped.keys()) expect(documented.has(name), name).toBe(true);
    // One series per code, at 0 once a sync succeeded: no code left at 1 beside the 0.
    expect(
      scraped.get('kiosk_catalog_sync_failing')!.samples.map((line) => line.split(' ').at(-1)),
    ).toEqual(['0', '0']);
  });
});

describe('scope labels', () => {
  it('otel_scope_name and otel_scope_version only when an operator asks', async () => {
    const scrape = async (scopeLabels: boolean) => {
      const endpoint = await startPrometheusEndpoint(0, { scopeLabels });
      const provider = new MeterProvider({ readers: [endpoint.reader] });
      provider.getMeter('commerce-kiosk', '1.2.3').createCounter('kiosk.test.events').add(1);
      try {
        return await (await fetch(endpoint.url)).text();
      } finally {
        await provider.shutdown();
        await endpoint.close();
      }
    };
    expect(await scrape(false)).toMatch(/^kiosk_test_events_total 1$/m);
    expect(await scrape(true)).toMatch(
      /^kiosk_test_events_total\{otel_scope_name="commerce-kiosk",otel_scope_version="1.2.3"\} 1$/m,
    );
  });
});
