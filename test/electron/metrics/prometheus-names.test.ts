import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { expect, it } from 'vitest';
import { startPrometheusEndpoint } from '../../../electron/metrics/prometheus-endpoint.ts';

/** OpenTelemetry's unit beside the name becomes Prometheus's suffix in base units, and the HELP names it. */
it('_seconds, _bytes, _ratio for a gauge of unit 1; counts and flags unsuffixed; a suffix never twice', async () => {
  const endpoint = await startPrometheusEndpoint(0);
  const provider = new MeterProvider({ readers: [endpoint.reader] });
  const meter = provider.getMeter('test');
  meter.createCounter('busy.time', { description: 'Time busy.', unit: 's' }).add(2);
  meter.createHistogram('wait', { description: 'Wait', unit: 's' }).record(0.5);
  meter
    .createObservableGauge('heap', { description: 'Heap used in bytes', unit: 'By' })
    .addCallback((result) => result.observe(1024));
  meter
    .createObservableGauge('load', { description: 'Load', unit: '1' })
    .addCallback((result) => result.observe(0.25));
  meter.createCounter('jobs', { description: 'Jobs', unit: '{job}' }).add(3);
  meter.createCounter('already_seconds', { description: 'In seconds', unit: 's' }).add(1);
  try {
    const text = await (await fetch(endpoint.url)).text();
    expect(text).toContain('# HELP busy_time_seconds_total Time busy, in seconds\n');
    expect(text).toContain('# UNIT busy_time_seconds_total seconds\n');
    expect(text).toMatch(/^busy_time_seconds_total 2$/m);
    expect(text).toMatch(/^wait_seconds_count 1$/m);
    expect(text).toContain('# HELP heap_bytes Heap used in bytes\n');
    expect(text).toMatch(/^heap_bytes 1024$/m);
    expect(text).toContain('# HELP load_ratio Load, as a ratio (0 to 1)\n');
    expect(text).toMatch(/^jobs_total 3$/m);
    expect(text).not.toContain('# UNIT jobs_total');
    expect(text).toMatch(/^already_seconds_total 1$/m);
  } finally {
    await provider.shutdown();
    await endpoint.close();
  }
});
