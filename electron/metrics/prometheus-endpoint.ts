import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { withPrometheusNames } from './prometheus-names.ts';

/** Scrapers at once: Prometheus and an agent or two; a flood gets closed connections. */
export const PROMETHEUS_MAX_CONNECTIONS = 16;

export interface PrometheusEndpoint {
  /** The reader to give the meter provider. */
  readonly reader: PrometheusExporter;
  /** `http://127.0.0.1:<port>/metrics`. */
  readonly url: string;
  close(): Promise<void>;
}

export interface PrometheusEndpointOptions {
  /**
   * `otel_scope_name` and `otel_scope_version` on every series (which library recorded it): off
   * by default, for an operator who asks (KIOSK_METRICS_SCOPE_LABELS=1); the family names already
   * say it (`kiosk_`, `process_`, `nodejs_`, `v8js_`).
   */
  readonly scopeLabels?: boolean;
}

/**
 * The scrape endpoint, on loopback only: the kiosk's figures are for an agent on the machine or
 * an SSH tunnel, never for the shop's network. The exporter's own server is not used, so that the
 * address is ours to choose (port 0 in tests), GET /metrics is the only route, and a port already
 * taken is an error the kiosk logs instead of a crash; nor its request handler, so that the names
 * follow Prometheus's conventions (`prometheus-names.ts`).
 */
export async function startPrometheusEndpoint(
  port: number,
  options: PrometheusEndpointOptions = {},
): Promise<PrometheusEndpoint> {
  const reader = new PrometheusExporter({ preventServerStart: true });
  // The kiosk and its store on every series too (not only `target_info`): a fleet query sums by store.
  const serializer = new PrometheusSerializer(
    undefined,
    false,
    /^kiosk\./,
    false,
    !(options.scopeLabels ?? false),
  );
  const scrape = async (response: ServerResponse): Promise<void> => {
    try {
      const { resourceMetrics } = await reader.collect();
      const text = serializer.serialize(withPrometheusNames(resourceMetrics));
      response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
      response.end(text);
    } catch (error) {
      response
        .writeHead(500, { 'content-type': 'text/plain' })
        .end(`# collection failed: ${String(error)}\n`);
    }
  };
  const server: Server = createServer(
    { connectionsCheckingInterval: 1_000 },
    (request, response) => {
      if (request.method === 'GET' && request.url?.split('?')[0] === '/metrics') {
        void scrape(response);
        return;
      }
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    },
  );
  // Anyone on the machine can connect: a flood of idle sockets must not take the descriptors the
  // kiosk needs (its database, its log, the page). Beyond the cap a connection is closed at once;
  // one that sends no request, or stops half-way, or stays idle between scrapes, is closed soon.
  server.maxConnections = PROMETHEUS_MAX_CONNECTIONS;
  server.headersTimeout = 5_000;
  server.requestTimeout = 10_000;
  server.keepAliveTimeout = 5_000;
  // A scraper that stops reading the reply must not hold the socket either.
  server.timeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    reader,
    url: `http://127.0.0.1:${bound}/metrics`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
