import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import { shopIds } from '../../../sandbox/data/referentials.ts';
import { type KioskFixture, replyTo, startKioskFixture } from '../kiosk/support.ts';

interface Received {
  readonly path: string;
  readonly contentType: string | undefined;
  readonly body: unknown;
}

type KeyValue = { key: string; value: Record<string, unknown> };
type DataPoint = { attributes?: KeyValue[] };
type OtlpMetric = {
  name: string;
  unit?: string;
  sum?: { dataPoints: DataPoint[]; isMonotonic?: boolean };
  gauge?: { dataPoints: DataPoint[] };
  histogram?: { dataPoints: DataPoint[] };
};
type MetricsExport = {
  resourceMetrics: {
    resource: { attributes: KeyValue[] };
    scopeMetrics: { metrics: OtlpMetric[] }[];
  }[];
};
type LogsExport = {
  resourceLogs: {
    resource: { attributes: KeyValue[] };
    scopeLogs: { logRecords: { body?: Record<string, unknown>; severityText?: string }[] }[];
  }[];
};

const attributesOf = (list: readonly KeyValue[] | undefined) =>
  Object.fromEntries((list ?? []).map(({ key, value }) => [key, Object.values(value)[0]]));

/**
 * The fleet collector's side of OTLP/HTTP: a local receiver takes what the kiosk pushes and the
 * test reads the metric names, units and attributes, and the log records, as a collector would.
 */
describe('metrics and logs pushed over OTLP/HTTP', { timeout: 60_000 }, () => {
  const received: Received[] = [];
  let receiver: Server;
  let fixture: KioskFixture;

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        received.push({
          path: request.url ?? '',
          contentType: request.headers['content-type'],
          body: JSON.parse(text) as unknown,
        });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as AddressInfo;
    fixture = await startKioskFixture({
      services: {
        shopId: shopIds.lyon,
        environment: {
          KIOSK_OTLP_ENDPOINT: `http://127.0.0.1:${port}/collector/`,
          KIOSK_OTLP_LOGS: '1',
          KIOSK_OTLP_INTERVAL_MS: '3600000',
          KIOSK_ID: 'kiosk-lyon-2',
        },
      },
    });
  });

  afterAll(async () => {
    await fixture?.close();
    await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  });

  it('metric names, units and attributes; the kiosk and its store on the resource', async () => {
    fixture.services.parts.sender.start();
    const debit = await replyTo(fixture, 'debitGiftCard', {
      requestId: crypto.randomUUID(),
      giftCardId: demoGiftCards.active,
      amount: 1.25,
      reference: 'V-2026-88',
      policy: 'prefer_online',
      waitMs: 10_000,
    });
    expect(debit.debit.state).toBe('applied');
    await fixture.services.parts.telemetry.flush();

    const exports = received.filter((entry) => entry.path === '/collector/v1/metrics');
    expect(exports.length).toBeGreaterThan(0);
    expect(exports[0]!.contentType).toMatch(/^application\/json/);
    const body = exports.at(-1)!.body as MetricsExport;
    const resource = attributesOf(body.resourceMetrics[0]!.resource.attributes);
    expect(resource).toMatchObject({
      'service.name': 'commerce-kiosk',
      'kiosk.id': 'kiosk-lyon-2',
      'kiosk.store.id': shopIds.lyon,
    });
    const metrics = new Map(
      body.resourceMetrics
        .flatMap((entry) => entry.scopeMetrics)
        .flatMap((scope) => scope.metrics)
        .map((metric) => [metric.name, metric]),
    );
    const expected: Record<string, string> = {
      'kiosk.api.requests': '{request}',
      'kiosk.api.request.duration': 's',
      'kiosk.outbox.attempts': '{attempt}',
      'kiosk.outbox.debits.accepted': '{debit}',
      'kiosk.outbox.debits': '{debit}',
      'kiosk.outbox.pending.amount': '{EUR}',
      'kiosk.outbox.oldest_pending.age': 's',
      // A flag has no unit: '1' would make it a ratio (`_ratio`) in Prometheus.
      'kiosk.outbox.sender.paused': '',
      'kiosk.clock.offset': 's',
      'kiosk.clock.steps': '{step}',
      'kiosk.build.info': '',
    };
    for (const [name, unit] of Object.entries(expected)) {
      expect(metrics.get(name)?.unit, name).toBe(unit);
    }
    const points = (name: string) => {
      const metric = metrics.get(name)!;
      return (metric.sum ?? metric.gauge ?? metric.histogram)!.dataPoints.map((point) =>
        attributesOf(point.attributes),
      );
    };
    expect(points('kiosk.outbox.attempts')).toContainEqual({ outcome: 'applied' });
    expect(points('kiosk.api.requests')).toContainEqual({
      operation: 'debitGiftCard',
      status_class: '2xx',
    });
    expect(points('kiosk.api.request.duration')).toContainEqual({ operation: 'debitGiftCard' });
    expect(points('kiosk.outbox.debits')).toContainEqual({ state: 'pending' });
    expect(metrics.get('kiosk.outbox.attempts')?.sum?.isMonotonic).toBe(true);
    // Closed label sets only: no card, request id, reference or shop in a metric's own labels.
    const labels = JSON.stringify([...metrics.keys()].map(points));
    expect(labels).not.toContain(demoGiftCards.active);
    expect(labels).not.toContain('V-2026-88');
  });

  it('log records, redacted as the log file is', async () => {
    await fixture.services.parts.telemetry.flush();
    const logs = received
      .filter((entry) => entry.path === '/collector/v1/logs')
      .flatMap((entry) => (entry.body as LogsExport).resourceLogs);
    expect(logs.length).toBeGreaterThan(0);
    expect(attributesOf(logs[0]!.resource.attributes)).toMatchObject({
      'kiosk.id': 'kiosk-lyon-2',
    });
    const records = logs.flatMap((entry) => entry.scopeLogs).flatMap((scope) => scope.logRecords);
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((record) => typeof record.severityText === 'string')).toBe(true);
    const account = fixture.sandbox.accounts.find(
      (entry) => entry.email === 'kiosk-all@sandbox.test',
    )!;
    const text = JSON.stringify(logs);
    expect(text).not.toContain(account.password);
    expect(text).not.toMatch(/eyJ[\w-]+\.[\w-]+\./); // no JWT
  });
});
