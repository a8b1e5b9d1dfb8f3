import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { messageNames } from '../../shared/ipc/contract.ts';
import { type IpcResult, ipcErrorCodes } from '../../shared/ipc/errors.ts';
import {
  LOOPBACK_EVENTS_PATH,
  LOOPBACK_IPC_PATH,
  LOOPBACK_MAX_REQUEST_BYTES,
  LOOPBACK_TOKEN_FRAGMENT,
  LOOPBACK_TOKEN_HEADER,
} from '../../shared/ipc/loopback.ts';
import { createIpcRouter, type IpcRouter, publishEvents } from '../ipc/index.ts';
import type { KioskServices } from '../kiosk/index.ts';
import {
  type Logger,
  type RateLimitOptions,
  createRateLimitedLogger,
  silentLogger,
} from '../logging/index.ts';
import { checkAssetVersions } from './asset-version.ts';
import { readRendererFile, resolveRendererFile } from './renderer-files.ts';
import { SECURITY_HEADERS } from './security-policy.ts';

/**
 * Vite's build names every file under assets/ by its content's hash, so a name is never served
 * with other bytes: the browser keeps them, and V8 keeps their compiled code with them, which a
 * start of the page then reuses (the Electron window's scheme has its own code cache). The page
 * itself (index.html), which names them, is never kept.
 */
const HASHED_ASSET = /^\/assets\/[^/]+-[A-Za-z0-9_-]{8,}\.(?:js|css)$/;
const HASHED_ASSET_CACHE = 'max-age=31536000, immutable';

export interface BrowserHostOptions {
  /** The kiosk services the router calls (handlers, events, the PIN guard). */
  readonly services: Pick<KioskServices, 'handlers' | 'events' | 'adminGuard'>;
  /** The built renderer (`dist/renderer`), absolute. */
  readonly rendererDir: string;
  /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
  readonly port?: number;
  /** The per-run token; random (32 bytes) unless a test fixes it. */
  readonly token?: string;
  /** Event streams open at once (browser tabs); more are refused (default 8). */
  readonly maxEventStreams?: number;
  readonly logger?: Logger;
  /** How many refusals (and failed requests) of one kind are logged; the rest are counted. */
  readonly refusalLog?: RateLimitOptions;
  /** Connections open at once (default 64); see `startBrowserHost`. */
  readonly maxConnections?: number;
}

export interface BrowserHost {
  /** `http://127.0.0.1:<port>`: the page's origin, the only one the router accepts. */
  readonly origin: string;
  /** What to open: the origin with the token in the fragment. */
  readonly url: string;
  readonly router: IpcRouter;
  /** Closes the listener, the event streams and open connections. */
  close(): Promise<void>;
}

const KEEPALIVE_MS = 15_000;

/**
 * Connections at once: a browser opens up to six to a host, plus its event streams (at most
 * `maxEventStreams`), a few tabs at most; far under the descriptors a process has (1,024).
 */
export const BROWSER_HOST_MAX_CONNECTIONS = 64;
/** A connection that has not sent its request's headers by then is closed (408). */
const HEADERS_TIMEOUT_MS = 10_000;
/** A whole request (at most LOOPBACK_MAX_REQUEST_BYTES) must arrive within this. */
const REQUEST_TIMEOUT_MS = 30_000;
/** An idle kept-alive connection is closed after this (Node's default, stated). */
const KEEP_ALIVE_TIMEOUT_MS = 5_000;

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}

function refuse(response: ServerResponse, status: number, code: string, message: string): void {
  const result: IpcResult<never> = { ok: false, error: { code, message } };
  sendJson(response, status, result);
}

/** A client that is not the page gets no kept-alive connection to hold a descriptor with. */
function refuseStranger(
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
): void {
  response.shouldKeepAlive = false;
  refuse(response, status, code, message);
}

function sameToken(given: string | undefined, expected: Buffer): boolean {
  if (given === undefined) return false;
  const buffer = Buffer.from(given, 'utf8');
  return buffer.length === expected.length && timingSafeEqual(buffer, expected);
}

async function readBody(request: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The kiosk for a plain browser, when Electron is not available: the built renderer and the same
 * IPC router, on 127.0.0.1 only. Every `/ipc/` request must carry the per-run token, come from the
 * page's own origin (`Origin`, and `Sec-Fetch-Site` when the browser sends it), and name this
 * host in `Host` (DNS rebinding). The page gets the same CSP as inside Electron.
 */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const logger = options.logger ?? silentLogger;
  // A renderer of another release is refused; a folder not built yet gets the page saying so.
  if (existsSync(join(options.rendererDir, 'index.html'))) {
    await checkAssetVersions({ rendererDir: options.rendererDir });
  }
  // Anyone on this machine can cause these at will: a flood costs the log a few lines.
  const strangers = createRateLimitedLogger(logger, options.refusalLog);
  const token = options.token ?? randomBytes(32).toString('base64url');
  const expectedToken = Buffer.from(token, 'utf8');
  const maxStreams = options.maxEventStreams ?? 8;
  const streams = new Set<ServerResponse>();
  let origin = '';
  let host = '';

  /** Open connections, oldest first: whether the page showed its token there, requests under way. */
  const connections = new Map<Socket, { page: boolean; busy: number }>();
  const maxConnections = options.maxConnections ?? BROWSER_HOST_MAX_CONNECTIONS;

  const server = createServer({ connectionsCheckingInterval: 1_000 }, (request, response) => {
    const connection = connections.get(request.socket);
    if (connection !== undefined) {
      connection.busy += 1;
      response.once('close', () => (connection.busy -= 1));
    }
    handle(request, response).catch((error: unknown) => {
      strangers.error('browser_host.request_failed', { error });
      if (response.headersSent) response.destroy();
      else refuse(response, 500, ipcErrorCodes.internal, 'host failure');
    });
  });
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;

  // Anyone on this machine can open connections by the thousand and leave them idle, which would
  // take the descriptors the kiosk needs (its database, its log) and the page's own way in. So the
  // host keeps at most `maxConnections`: past it, the oldest connection that is neither the page's
  // (it showed the token) nor in the middle of a request is closed to make room, else the newcomer.
  // A stranger's flood then churns through its own connections while the page gets in.
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { page: false, busy: 0 });
    socket.once('close', () => connections.delete(socket));
    if (connections.size <= maxConnections) return;
    let victim = socket;
    for (const [candidate, state] of connections) {
      if (candidate !== socket && !state.page && state.busy === 0) {
        victim = candidate;
        break;
      }
    }
    connections.delete(victim);
    victim.destroy();
    strangers.warn('browser_host.connection_dropped', {});
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // Only this host's own name: a DNS-rebound page (evil.example -> 127.0.0.1) is refused.
    if (request.headers.host !== host) {
      strangers.warn('browser_host.host_refused', {});
      refuseStranger(response, 421, ipcErrorCodes.forbiddenSender, 'wrong host');
      return;
    }
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (path.startsWith(LOOPBACK_IPC_PATH)) {
      await handleIpc(request, response, path);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      refuse(response, 405, ipcErrorCodes.unknownChannel, 'method not allowed');
      return;
    }
    await serveFile(request, response, path);
  }

  async function serveFile(
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
  ): Promise<void> {
    const file = resolveRendererFile(options.rendererDir, path);
    if (!file.ok) {
      if (file.status === 404 && (path === '/' || path === '/index.html')) {
        response.writeHead(503, {
          ...SECURITY_HEADERS,
          'Content-Type': 'text/plain; charset=utf-8',
        });
        response.end('The kiosk UI is not built: run `npm run build:renderer`, then reload.\n');
        return;
      }
      response.writeHead(file.status, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain' });
      response.end();
      return;
    }
    const bytes = await readRendererFile(file.path);
    if (bytes === undefined) {
      response.writeHead(404, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain' });
      response.end();
      return;
    }
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      ...(HASHED_ASSET.test(path) ? { 'Cache-Control': HASHED_ASSET_CACHE } : {}),
      'Content-Type': file.contentType,
      'Content-Length': bytes.byteLength,
    });
    response.end(request.method === 'HEAD' ? undefined : bytes);
  }

  async function handleIpc(
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
  ): Promise<void> {
    if (request.method !== 'POST') {
      refuse(response, 405, ipcErrorCodes.unknownChannel, 'use POST');
      return;
    }
    const requestOrigin = request.headers.origin;
    const fetchSite = request.headers['sec-fetch-site'];
    if (requestOrigin !== origin || (fetchSite !== undefined && fetchSite !== 'same-origin')) {
      strangers.warn('browser_host.origin_refused', {});
      refuseStranger(
        response,
        403,
        ipcErrorCodes.forbiddenSender,
        'this page may not talk to the kiosk',
      );
      return;
    }
    const given = request.headers[LOOPBACK_TOKEN_HEADER];
    if (!sameToken(typeof given === 'string' ? given : undefined, expectedToken)) {
      strangers.warn('browser_host.token_refused', {});
      refuseStranger(response, 401, ipcErrorCodes.unauthorized, 'missing or wrong access token');
      return;
    }
    // The page's own connection: never the one closed to make room for another.
    const connection = connections.get(request.socket);
    if (connection !== undefined) connection.page = true;
    const contentType = request.headers['content-type'] ?? '';
    if (!/^application\/json(;|$)/i.test(contentType)) {
      refuse(response, 415, ipcErrorCodes.invalidRequest, 'expected application/json');
      return;
    }
    if (path === LOOPBACK_EVENTS_PATH) {
      openEventStream(request, response);
      return;
    }
    const name = path.slice(LOOPBACK_IPC_PATH.length);
    const body = await readBody(request, LOOPBACK_MAX_REQUEST_BYTES);
    if (body === undefined) {
      refuse(response, 413, ipcErrorCodes.payloadTooLarge, 'request too large');
      request.destroy();
      return;
    }
    let payload: unknown;
    try {
      payload = body === '' ? undefined : JSON.parse(body);
    } catch {
      sendJson(response, 200, {
        ok: false,
        error: { code: ipcErrorCodes.invalidRequest, message: 'invalid request: not JSON' },
      });
      return;
    }
    // The router does the rest: the channel must be a message, the payload must match its
    // schema. The sender is this host's own page: Origin and token were just checked.
    const channel = (messageNames as readonly string[]).includes(name) ? `kiosk:${name}` : '';
    const result = await router.handle(channel, payload, {
      frameUrl: `${origin}/`,
      isMainFrame: true,
    });
    sendJson(response, 200, result);
  }

  function openEventStream(request: IncomingMessage, response: ServerResponse): void {
    if (streams.size >= maxStreams) {
      refuse(response, 429, ipcErrorCodes.invalidRequest, 'too many event streams');
      return;
    }
    // The request body is not used; drain it so the connection is reusable.
    request.resume();
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      Connection: 'keep-alive',
    });
    response.write(': connected\n\n');
    streams.add(response);
    const unsubscribe = publishEvents(
      options.services.events,
      (channel, payload) => {
        response.write(`event: ${channel}\ndata: ${JSON.stringify(payload)}\n\n`);
      },
      logger,
    );
    const keepalive = setInterval(() => response.write(': keepalive\n\n'), KEEPALIVE_MS);
    keepalive.unref();
    const end = () => {
      clearInterval(keepalive);
      unsubscribe();
      streams.delete(response);
    };
    response.on('close', end);
    response.on('error', end);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: options.port ?? 0 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Once listening, an error is a connection the kernel could not hand over (no descriptors
  // left): unhandled it would end the process; the listener itself goes on.
  server.on('error', (error) => strangers.error('browser_host.accept_failed', { error }));
  const { port } = server.address() as AddressInfo;
  host = `127.0.0.1:${port}`;
  origin = `http://${host}`;
  // Created once the port (and so the page's origin) is known; no request can arrive before this
  // line runs, since connections are only accepted on a later turn of the event loop.
  const router = createIpcRouter({
    handlers: options.services.handlers,
    allowedOrigins: [origin],
    adminGuard: options.services.adminGuard,
    logger,
  });

  let closing: Promise<void> | undefined;
  return {
    origin,
    url: `${origin}/#${LOOPBACK_TOKEN_FRAGMENT}=${token}`,
    router,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const stream of streams) stream.end();
        server.close(() => {
          strangers.flush();
          resolve();
        });
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
