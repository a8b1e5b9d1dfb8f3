import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as it went over the wire to the service. */
export interface WireRequest {
  readonly method: string;
  readonly path: string;
  readonly idempotencyKey: string | undefined;
  /** The exact bytes of the body, as text. */
  readonly body: string;
}

export interface WireRecorder {
  /** The service's base URL through the recorder. */
  readonly baseUrl: string;
  /** Every request seen, in order. */
  readonly requests: WireRequest[];
  close(): Promise<void>;
}

/**
 * An HTTP relay in front of the service that keeps every request it forwards, body included:
 * what a test asserts was on the wire, not what the kiosk meant to send.
 */
export async function startWireRecorder(target: string): Promise<WireRecorder> {
  const { hostname, port } = new URL(target);
  const requests: WireRequest[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const key = incoming.headers['idempotency-key'];
      requests.push({
        method: incoming.method ?? '',
        path: incoming.url ?? '',
        idempotencyKey: Array.isArray(key) ? key[0] : key,
        body: body.toString('utf8'),
      });
      const upstream = forward(
        {
          host: hostname,
          port: Number(port),
          method: incoming.method,
          path: incoming.url,
          headers: incoming.headers,
        },
        (reply) => {
          outgoing.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(outgoing);
        },
      );
      upstream.on('error', () => outgoing.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
