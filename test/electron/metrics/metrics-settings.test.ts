import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createRedactingLogger } from '../../../electron/logging/index.ts';
import {
  DEFAULT_EXPORT_INTERVAL_MS,
  MetricsSettingsError,
  openKioskTelemetry,
  resolveMetricsSettings,
} from '../../../electron/metrics/index.ts';

const machine = () => 'caisse-03.magasin.local';

describe('metrics settings', () => {
  it('everything off by default; the machine name as the kiosk id', async () => {
    const settings = resolveMetricsSettings(undefined, {}, machine);
    expect(settings).toEqual({
      prometheusPort: null,
      prometheusScopeLabels: false,
      otlpEndpoint: null,
      otlpLogs: false,
      exportIntervalMs: DEFAULT_EXPORT_INTERVAL_MS,
      kioskId: 'caisse-03.magasin.local',
    });
    const telemetry = await openKioskTelemetry(settings, { storeId: null, version: '0.1.0' });
    expect(telemetry.prometheusUrl).toBeNull();
    expect(telemetry.logSink).toBeNull();
    await telemetry.close();
  });

  it('a port already taken: no endpoint and an error logged, the kiosk goes on', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    const logged: string[] = [];
    const logger = createRedactingLogger({ sink: (line) => logged.push(line) });
    try {
      const settings = resolveMetricsSettings(undefined, { KIOSK_METRICS_PORT: String(port) });
      const telemetry = await openKioskTelemetry(settings, { storeId: null, version: '0' }, logger);
      expect(telemetry.prometheusUrl).toBeNull();
      expect(logged.join('\n')).toMatch(/"event":"kiosk.metrics.endpoint_failed".*EADDRINUSE/);
      await telemetry.close();
    } finally {
      taken.close();
    }
  });

  it('the environment wins key by key over the settings file; off turns a way out off', () => {
    const saved = {
      prometheusPort: 9464,
      otlpEndpoint: 'https://collector.example.com',
      otlpLogs: true,
      kioskId: 'from-file',
    };
    expect(
      resolveMetricsSettings(
        saved,
        { KIOSK_METRICS_PORT: '9500', KIOSK_METRICS_SCOPE_LABELS: '1', KIOSK_OTLP_LOGS: '0' },
        machine,
      ),
    ).toEqual({
      prometheusPort: 9500,
      prometheusScopeLabels: true,
      otlpEndpoint: 'https://collector.example.com',
      otlpLogs: false,
      exportIntervalMs: DEFAULT_EXPORT_INTERVAL_MS,
      kioskId: 'from-file',
    });
    expect(
      resolveMetricsSettings(saved, { KIOSK_METRICS_PORT: 'off', KIOSK_OTLP_ENDPOINT: 'off' }),
    ).toMatchObject({ prometheusPort: null, otlpEndpoint: null });
  });

  it.each([
    ['KIOSK_METRICS_PORT', '70000'],
    ['KIOSK_METRICS_PORT', 'abc'],
    ['KIOSK_OTLP_ENDPOINT', 'ftp://collector'],
    ['KIOSK_OTLP_ENDPOINT', 'https://user:secret@collector.example.com'],
    ['KIOSK_OTLP_LOGS', 'yes please'],
    ['KIOSK_METRICS_SCOPE_LABELS', 'on'],
    ['KIOSK_OTLP_INTERVAL_MS', '10'],
    ['KIOSK_ID', 'a kiosk with spaces'],
  ])('%s=%s is refused with a typed error naming the variable', (variable, value) => {
    expect(() => resolveMetricsSettings(undefined, { [variable]: value })).toThrow(
      MetricsSettingsError,
    );
    expect(() => resolveMetricsSettings(undefined, { [variable]: value })).toThrow(
      new RegExp(`^${variable}: `),
    );
  });

  it('a host name that is not a label is made one', () => {
    expect(resolveMetricsSettings(undefined, {}, () => 'Caisse n°3 (entrée)').kioskId).toBe(
      'Caisse-n-3--entr-e-',
    );
    expect(resolveMetricsSettings(undefined, {}, () => '***').kioskId).toBe('kiosk');
  });
});
