import type { Meter } from '@opentelemetry/api';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import {
  MeterProvider,
  type MetricReader,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { type LogSink, type Logger, silentLogger } from '../logging/index.ts';
import type { MetricsSettings } from './metrics-settings.ts';
import { createOtlpLogSink } from './otlp-log-sink.ts';
import { type PrometheusEndpoint, startPrometheusEndpoint } from './prometheus-endpoint.ts';

export interface TelemetryIdentity {
  /** The kiosk's shop; null when none is configured. */
  readonly storeId: string | null;
  readonly version: string;
}

/** The meter the kiosk records on, and its ways out; with none configured, a meter that costs nothing. */
export interface KioskTelemetry {
  readonly meter: Meter;
  /** The scrape endpoint's URL, when it is on. */
  readonly prometheusUrl: string | null;
  /** The OTLP log sink to add beside the file, when logs go to the collector too. */
  readonly logSink: LogSink | null;
  /** Pushes what is pending (metrics and logs) now. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The OpenTelemetry SDK set up for one kiosk: the kiosk and its store as resource attributes
 * (labels on every series, never inside a metric's own labels), a loopback Prometheus endpoint
 * and OTLP/HTTP to the fleet's collector as configured.
 */
export async function openKioskTelemetry(
  settings: MetricsSettings,
  identity: TelemetryIdentity,
  logger: Logger = silentLogger,
): Promise<KioskTelemetry> {
  const resource = resourceFromAttributes({
    'service.name': 'commerce-kiosk',
    'service.version': identity.version,
    'service.instance.id': settings.kioskId,
    'kiosk.id': settings.kioskId,
    ...(identity.storeId === null ? {} : { 'kiosk.store.id': identity.storeId }),
  });
  const readers: MetricReader[] = [];
  let prometheus: PrometheusEndpoint | undefined;
  if (settings.prometheusPort !== null) {
    try {
      prometheus = await startPrometheusEndpoint(settings.prometheusPort, {
        scopeLabels: settings.prometheusScopeLabels,
      });
      readers.push(prometheus.reader);
    } catch (error) {
      // A port taken by another program costs the fleet this kiosk's figures, not the kiosk.
      logger.error('kiosk.metrics.endpoint_failed', { port: settings.prometheusPort, error });
    }
  }
  const otlp = settings.otlpEndpoint?.replace(/\/+$/, '');
  if (otlp !== undefined) {
    readers.push(
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url: `${otlp}/v1/metrics` }),
        exportIntervalMillis: settings.exportIntervalMs,
        exportTimeoutMillis: Math.min(30_000, settings.exportIntervalMs),
      }),
    );
  }
  const provider = new MeterProvider({ resource, readers });
  // Nothing reads them without a way out: no event loop monitor on a kiosk that reports nothing,
  // and their modules (systeminformation...) are loaded only then: a few hundred ms of a start.
  const runtime =
    readers.length === 0
      ? undefined
      : (await import('./runtime-metrics.ts')).startRuntimeMetrics(provider);
  const logs =
    otlp !== undefined && settings.otlpLogs
      ? new LoggerProvider({
          resource,
          processors: [
            new BatchLogRecordProcessor({
              exporter: new OTLPLogExporter({ url: `${otlp}/v1/logs` }),
              // Bounded: a collector that is down costs the kiosk at most this many lines of memory.
              maxQueueSize: 2_048,
            }),
          ],
        })
      : undefined;
  const logSink = logs === undefined ? null : createOtlpLogSink(logs);

  let closing: Promise<void> | undefined;
  return {
    meter: provider.getMeter('commerce-kiosk', identity.version),
    prometheusUrl: prometheus?.url ?? null,
    logSink,
    async flush() {
      await Promise.allSettled([provider.forceFlush(), logSink?.flush()]);
    },
    close() {
      closing ??= (async () => {
        runtime?.stop();
        await Promise.allSettled([provider.shutdown(), logSink?.close(), prometheus?.close()]);
      })();
      return closing;
    },
  };
}
