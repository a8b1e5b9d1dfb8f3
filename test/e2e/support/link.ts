import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * How the link to the service is cut:
 * - `refused`: nothing listens any more; a new connection is refused (ECONNREFUSED) and an open
 *   one is reset, as when the service's host is up and its server is gone;
 * - `dropped`: SYNs go unanswered (a listener whose accept queue is full, and which never
 *   accepts: Linux drops the SYN), and an open connection is black-holed (nothing it carries
 *   arrives, nothing comes back), as behind a firewall that started dropping, or a pulled cable;
 * - `hung`: a new connection is accepted and never answered, and an open one is black-holed, as
 *   with a service whose server hangs.
 */
export type LinkCut = 'refused' | 'dropped' | 'hung';

export interface ServiceLink {
  /** The base URL to give the kiosk instead of the service's. */
  readonly url: string;
  /** Connections the link forwarded to the service, over its whole life. */
  readonly forwarded: number;
  cut(how: LinkCut): Promise<void>;
  /** The link works again (on the same port). */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP relay on loopback between the kiosk and the service (the sandbox): what a kiosk's
 * network does, so that a test can cut it at the TCP level rather than by a fault the service
 * answers with. The sandbox's own faults all answer or reset after accepting.
 */
export async function startServiceLink(serviceUrl: string): Promise<ServiceLink> {
  const target = new URL(serviceUrl);
  const targetPort = Number(target.port);
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  let forwarded = 0;
  let blackHole: ChildProcess | undefined;
  let fillers: Socket[] = [];
  /** Connections a hung service accepted: kept open, never answered, until the link is back. */
  let swallowed: Socket[] = [];
  const swallow = (socket: Socket) => {
    swallowed.push(socket);
    socket.on('data', () => undefined).on('error', () => undefined);
  };

  const relay = (client: Socket) => {
    forwarded += 1;
    const upstream = connect(targetPort, target.hostname);
    const pair = { client, upstream };
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    const forget = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', forget).on('close', forget);
    upstream.on('error', forget).on('close', forget);
  };

  let server: Server = createServer(relay);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const port = address.port;

  // Stops accepting at once; its 'close' would wait for the open connections, which the cut
  // handles itself.
  const stopListening = async () => {
    if (!server.listening) return;
    server.close();
    await new Promise((resolve) => setImmediate(resolve));
  };

  const startBlackHole = async () => {
    // Backlog 0: one connection fills the accept queue, and with the queue full Linux drops every
    // SYN that comes (tcp_conn_request: listen overflow). The process never accepts.
    const child = spawn(
      'python3',
      [
        '-c',
        [
          'import socket, sys',
          's = socket.socket()',
          's.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)',
          `s.bind(("127.0.0.1", ${port}))`,
          's.listen(0)',
          'print("listening", flush=True)',
          'sys.stdin.read()',
        ].join('\n'),
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    blackHole = child;
    const [line] = (await once(child.stdout!, 'data')) as [Buffer];
    if (!line.toString().includes('listening')) throw new Error('the black hole did not listen');
    const filler = connect(port, '127.0.0.1');
    filler.on('error', () => undefined);
    await once(filler, 'connect');
    fillers = [filler];
    // A SYN now gets no answer: checked, so that a test cannot pass on a refused connection.
    const probe = connect(port, '127.0.0.1');
    probe.on('error', () => undefined);
    const outcome = await Promise.race([
      once(probe, 'connect').then(() => 'connected'),
      new Promise((resolve) => setTimeout(resolve, 500, 'unanswered')),
    ]);
    probe.destroy();
    if (outcome !== 'unanswered') throw new Error('the black hole answered a SYN');
  };

  const stopBlackHole = async () => {
    for (const filler of fillers) filler.destroy();
    fillers = [];
    const child = blackHole;
    blackHole = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    get forwarded() {
      return forwarded;
    },
    async cut(how) {
      await stopListening();
      for (const pair of [...pairs]) {
        if (how === 'refused') {
          pair.client.resetAndDestroy();
          pair.upstream.destroy();
          pairs.delete(pair);
        } else {
          // Nothing passes either way, and nothing tells the kiosk: its socket stays open.
          pair.client.unpipe(pair.upstream);
          pair.upstream.unpipe(pair.client);
          pair.upstream.removeAllListeners('close');
          pair.upstream.removeAllListeners('error');
          pair.upstream.on('error', () => undefined);
          pair.upstream.destroy();
          pair.client.on('data', () => undefined);
        }
      }
      if (how === 'dropped') await startBlackHole();
      if (how === 'hung') {
        server = createServer(swallow);
        server.listen(port, '127.0.0.1');
        await once(server, 'listening');
      }
    },
    async restore() {
      await stopBlackHole();
      await stopListening();
      for (const socket of swallowed) socket.resetAndDestroy();
      swallowed = [];
      // Connections black-holed by the cut stay dead: reset them, as the kiosk's would time out.
      for (const pair of [...pairs]) pair.client.resetAndDestroy();
      pairs.clear();
      server = createServer(relay);
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
    },
    async close() {
      await stopBlackHole();
      for (const socket of swallowed) socket.destroy();
      swallowed = [];
      for (const pair of [...pairs]) pair.client.destroy();
      await stopListening();
    },
  };
}
