import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';

export interface PrometheusEndpoint {
  /** The reader to give the meter provider. */
  readonly reader: PrometheusExporter;
  /** `http://127.0.0.1:<port>/metrics`. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The scrape endpoint, on loopback only: the kiosk's figures are for an agent on the machine or
 * an SSH tunnel, never for the shop's network. The exporter's own server is not used, so that the
 * address is ours to choose (port 0 in tests), GET /metrics is the only route, and a port already
 * taken is an error the kiosk logs instead of a crash.
 */
export async function startPrometheusEndpoint(port: number): Promise<PrometheusEndpoint> {
  // The kiosk and its store on every series too (not only `target_info`): a fleet query sums by store.
  const reader = new PrometheusExporter({
    preventServerStart: true,
    withResourceConstantLabels: /^kiosk\./,
  });
  const server: Server = createServer((request, response) => {
    if (request.method === 'GET' && request.url?.split('?')[0] === '/metrics') {
      reader.getMetricsRequestHandler(request, response);
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  });
  // A scraper that stops reading must not hold the kiosk's sockets.
  server.requestTimeout = 10_000;
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
