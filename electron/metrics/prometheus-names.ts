import type { MetricData, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { DataPointType } from '@opentelemetry/sdk-metrics';

/**
 * The metrics as Prometheus names them: OpenTelemetry's names carry no unit (it travels beside
 * them, as over OTLP), Prometheus's carry it as a suffix in base units (`_seconds`, `_bytes`, and
 * `_ratio` for a gauge of unit `1`), and its HELP text is all a reader of the scrape sees. The
 * OpenTelemetry specification's Prometheus compatibility rules add the suffix at the exporter;
 * the JS Prometheus exporter does not yet, so the endpoint does it here, for the kiosk's own
 * instruments and the runtime and process ones alike. A unit in braces (`{debit}`) is a count,
 * which Prometheus names without a unit. The serializer adds `_total` to counters after this.
 */

/** The units the kiosk's and the runtime's instruments use, as Prometheus words: base units only. */
const unitWords: Readonly<Record<string, string>> = { s: 'seconds', By: 'bytes' };

/**
 * Units the semantic conventions give instruments that @opentelemetry/host-metrics 0.39 creates
 * without one (its descriptions say them: "in bytes", "0-1").
 */
const conventionUnits: Readonly<Record<string, string>> = {
  'process.memory.usage': 'By',
  'process.cpu.utilization': '1',
};

export function withPrometheusNames(metrics: ResourceMetrics): ResourceMetrics {
  return {
    ...metrics,
    scopeMetrics: metrics.scopeMetrics.map((scope) => ({
      ...scope,
      metrics: scope.metrics.map(withPrometheusName),
    })),
  };
}

function withPrometheusName(given: MetricData): MetricData {
  const unit = given.descriptor.unit || conventionUnits[given.descriptor.name] || '';
  const metric = { ...given, descriptor: { ...given.descriptor, unit } };
  const word = unitWordOf(metric);
  // The UNIT comment as OpenMetrics has it (the name's suffix), none for a count.
  if (word === undefined) return { ...metric, descriptor: { ...metric.descriptor, unit: '' } };
  const { name, description } = metric.descriptor;
  const suffixed =
    name.endsWith(`_${word}`) || name.endsWith(`.${word}`) ? name : `${name}_${word}`;
  return {
    ...metric,
    descriptor: {
      ...metric.descriptor,
      name: suffixed,
      unit: word,
      description: mentions(description, word)
        ? description
        : `${description.replace(/\.$/, '')}, ${word === 'ratio' ? 'as a ratio (0 to 1)' : `in ${word}`}`,
    },
  };
}

function unitWordOf(metric: MetricData): string | undefined {
  const { unit } = metric.descriptor;
  if (unit === '1') return metric.dataPointType === DataPointType.GAUGE ? 'ratio' : undefined;
  return unitWords[unit];
}

function mentions(description: string, word: string): boolean {
  const text = description.toLowerCase();
  return word === 'ratio' ? text.includes('ratio') || text.includes('0-1') : text.includes(word);
}
