import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';

/**
 * The network between the kiosk and the service, as a TCP relay a test can cut: `cut()` drops
 * every open connection and stops listening, so the next connection is refused (the kiosk's link
 * went down; nothing of a new request reaches the service); `restore()` listens again on the
 * same port.
 */
export interface CuttableLink {
  /** The service's base URL through the link. */
  readonly baseUrl: string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startCuttableLink(target: string): Promise<CuttableLink> {
  const { hostname, port: targetPort } = new URL(target);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = createServer((client) => {
        const upstream = connect(Number(targetPort), hostname);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('error', drop).on('close', drop);
        }
        client.pipe(upstream).pipe(client);
      });
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        port = (next.address() as AddressInfo).port;
        server = next;
        resolve();
      });
    });

  const cut = async () => {
    const current = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  };

  await listen();
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    cut,
    restore: listen,
    close: cut,
  };
}
