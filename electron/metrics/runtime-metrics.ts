import type { MeterProvider } from '@opentelemetry/api';
import { HostMetrics } from '@opentelemetry/host-metrics';
import { RuntimeNodeInstrumentation } from '@opentelemetry/instrumentation-runtime-node';

/**
 * The process's and Node.js runtime's own figures (CPU time, resident memory, event loop delay
 * and utilisation, garbage collection, V8 heap spaces), from the OpenTelemetry packages made for
 * them, on the kiosk's meter provider: a leak or a blocked event loop shows beside the kiosk's
 * own metrics. Host metrics are limited to the process: the machine's CPUs and network
 * interfaces are the node agent's to report, and an interface name is not a closed label.
 */
export function startRuntimeMetrics(provider: MeterProvider): { stop(): void } {
  new HostMetrics({
    meterProvider: provider,
    name: 'commerce-kiosk-process',
    metricGroups: ['process.cpu', 'process.memory'],
  }).start();
  const runtime = new RuntimeNodeInstrumentation({ enabled: false });
  runtime.setMeterProvider(provider);
  runtime.enable();
  // HostMetrics' callbacks end with the provider's shutdown; the runtime's event loop monitor is stopped here.
  return { stop: () => runtime.disable() };
}
