import http from 'node:http';
import https from 'node:https';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { TLSSocket } from 'node:tls';
import axios, { AxiosError, type AxiosInstance } from 'axios';

/**
 * The one HTTP exchange primitive of the client: one axios instance over keep-alive agents.
 * Every reply comes back as bytes with its status (`validateStatus: () => true`); parsing,
 * error mapping and retries belong to the client, so nothing here guesses at JSON, follows a
 * redirect, or throws on a 4xx. Failures are returned as values, never as the library's error
 * objects: those carry the request config, Authorization header included.
 */

export interface TransportOptions {
  /** Most time allowed to open the TCP (and TLS) connection; nothing is sent before. */
  readonly connectTimeoutMs: number;
  /** Most time one attempt may take, from sending to the last byte of the reply. */
  readonly responseTimeoutMs: number;
  readonly maxSockets?: number;
  readonly userAgent: string;
}

export type HttpMethod = 'GET' | 'PUT' | 'POST';

export interface TransportRequest {
  readonly method: HttpMethod;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Serialised once by the caller, so a retry sends exactly the same bytes. */
  readonly body?: string | undefined;
  /** Replies larger than this are cut off and reported as `too-large`. */
  readonly maxBytes: number;
  readonly signal?: AbortSignal | undefined;
  /**
   * Sent on a connection opened for this request alone (`Connection: close`, an agent of its
   * own), never on a pooled keep-alive one: if the link is gone the connection never opens, so a
   * failure says for certain that nothing left the kiosk (`requestSent: false`). A pooled socket
   * the link black-holed would take the bytes and leave their fate unknown.
   */
  readonly freshConnection?: boolean | undefined;
  /** With `freshConnection`: most time that connection may take to open (else the transport's). */
  readonly connectTimeoutMs?: number | undefined;
}

export interface TransportReply {
  readonly status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

export type TransportFailure =
  | {
      readonly kind: 'network';
      readonly requestSent: boolean;
      readonly systemCode: string | undefined;
      readonly message: string;
    }
  | { readonly kind: 'timeout'; readonly phase: 'connect' | 'response'; readonly timeoutMs: number }
  | { readonly kind: 'too-large'; readonly maxBytes: number }
  | { readonly kind: 'aborted'; readonly reason: unknown };

export type TransportOutcome =
  | { readonly ok: true; readonly reply: TransportReply }
  | { readonly ok: false; readonly failure: TransportFailure };

export interface Transport {
  send(request: TransportRequest): Promise<TransportOutcome>;
  /** Closes the pooled connections. */
  close(): void;
}

const CONNECT_TIMEOUT_CODE = 'ECONNECTTIMEOUT';

/** System codes that mean the request never left this machine or never reached a listener. */
const notSentCodes = new Set([
  CONNECT_TIMEOUT_CODE,
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'ERR_INVALID_URL',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
]);

/**
 * Destroys a socket still connecting after `ms`. Node's agents have no connect timeout (axios'
 * `timeout` is an inactivity timer), and a kiosk on a dead Wi-Fi must fail fast and know that
 * nothing was sent.
 */
export function armConnectTimeout(stream: Duplex, ms: number): void {
  if (!(stream instanceof Socket) || !stream.connecting || ms <= 0) return;
  const established = stream instanceof TLSSocket ? 'secureConnect' : 'connect';
  const timer = setTimeout(() => {
    const error = Object.assign(new Error(`no connection within ${ms} ms`), {
      code: CONNECT_TIMEOUT_CODE,
    });
    stream.destroy(error);
  }, ms);
  timer.unref();
  const clear = () => clearTimeout(timer);
  stream.once(established, clear);
  stream.once('close', clear);
}

class HttpAgentWithConnectTimeout extends http.Agent {
  readonly #connectTimeoutMs: number;
  constructor(options: http.AgentOptions, connectTimeoutMs: number) {
    super(options);
    this.#connectTimeoutMs = connectTimeoutMs;
  }
  override createConnection(
    ...args: Parameters<http.Agent['createConnection']>
  ): ReturnType<http.Agent['createConnection']> {
    const stream = super.createConnection(...args);
    if (stream) armConnectTimeout(stream, this.#connectTimeoutMs);
    return stream;
  }
}

class HttpsAgentWithConnectTimeout extends https.Agent {
  readonly #connectTimeoutMs: number;
  constructor(options: https.AgentOptions, connectTimeoutMs: number) {
    super(options);
    this.#connectTimeoutMs = connectTimeoutMs;
  }
  override createConnection(
    ...args: Parameters<https.Agent['createConnection']>
  ): ReturnType<https.Agent['createConnection']> {
    const stream = super.createConnection(...args);
    if (stream) armConnectTimeout(stream, this.#connectTimeoutMs);
    return stream;
  }
}

function systemCodeOf(error: AxiosError): string | undefined {
  if (error.code && error.code !== AxiosError.ERR_NETWORK && error.code !== 'ERR_BAD_RESPONSE')
    return error.code;
  const cause: unknown = error.cause;
  if (cause instanceof AggregateError) {
    // Happy-eyeballs connection attempts: every address failed; the first code says why.
    const first: unknown = cause.errors[0];
    if (first instanceof Error && 'code' in first && typeof first.code === 'string')
      return first.code;
  }
  if (cause instanceof Error && 'code' in cause && typeof cause.code === 'string')
    return cause.code;
  return error.code;
}

function flattenHeaders(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || value === null) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.map(String).join(', ') : String(value);
  }
  return out;
}

export function createTransport(options: TransportOptions): Transport {
  const maxSockets = options.maxSockets ?? 8;
  const agentOptions = {
    keepAlive: true,
    keepAliveMsecs: 1_000,
    maxSockets,
    // As many kept as may be open: the outbox's answers, committed together, free their sockets
    // together, and keeping only half of them reopened a TLS connection for every other debit.
    maxFreeSockets: maxSockets,
  };
  const httpAgent = new HttpAgentWithConnectTimeout(agentOptions, options.connectTimeoutMs);
  const httpsAgent = new HttpsAgentWithConnectTimeout(agentOptions, options.connectTimeoutMs);

  const instance: AxiosInstance = axios.create({
    adapter: 'http',
    httpAgent,
    httpsAgent,
    // Every status is an answer the client maps itself; no exception for a 404.
    validateStatus: () => true,
    // Bytes in, bytes out: JSON is parsed (and PDFs checked) by the client, never guessed at here.
    responseType: 'arraybuffer',
    transformRequest: [(data: unknown) => data],
    transformResponse: [(data: unknown) => data],
    transitional: { silentJSONParsing: false, forcedJSONParsing: false, clarifyTimeoutError: true },
    // The API never redirects; following one would resend the bearer token somewhere else.
    maxRedirects: 0,
    // Environment proxy variables would silently reroute the bearer token; a proxy is an explicit choice.
    proxy: false,
    decompress: true,
    maxBodyLength: 1024 * 1024,
    headers: { 'User-Agent': options.userAgent },
  });

  /** One-off agents for a request that must open its own connection; destroyed after it. */
  const freshAgents = (connectTimeoutMs: number) => {
    const single = { keepAlive: false, maxSockets: 1, maxFreeSockets: 0 };
    return {
      httpAgent: new HttpAgentWithConnectTimeout(single, connectTimeoutMs),
      httpsAgent: new HttpsAgentWithConnectTimeout(single, connectTimeoutMs),
    };
  };

  return {
    async send(request: TransportRequest): Promise<TransportOutcome> {
      const fresh = request.freshConnection === true;
      const connectTimeoutMs = (fresh && request.connectTimeoutMs) || options.connectTimeoutMs;
      const own = fresh ? freshAgents(connectTimeoutMs) : undefined;
      const deadline = new AbortController();
      const timer = setTimeout(
        () => deadline.abort(new Error(`no complete reply within ${options.responseTimeoutMs} ms`)),
        options.responseTimeoutMs,
      );
      const signal = request.signal
        ? AbortSignal.any([deadline.signal, request.signal])
        : deadline.signal;
      try {
        const response = await instance.request<ArrayBuffer | Uint8Array>({
          method: request.method,
          url: request.url,
          headers: own ? { ...request.headers, Connection: 'close' } : { ...request.headers },
          data: request.body,
          maxContentLength: request.maxBytes,
          signal,
          ...(own ?? {}),
        });
        const data: unknown = response.data;
        const body =
          data instanceof Uint8Array
            ? data
            : data instanceof ArrayBuffer
              ? new Uint8Array(data)
              : new Uint8Array(0);
        return {
          ok: true,
          reply: {
            status: response.status,
            headers: flattenHeaders(response.headers as Record<string, unknown>),
            body,
          },
        };
      } catch (error) {
        if (request.signal?.aborted)
          return { ok: false, failure: { kind: 'aborted', reason: request.signal.reason } };
        if (deadline.signal.aborted) {
          return {
            ok: false,
            failure: { kind: 'timeout', phase: 'response', timeoutMs: options.responseTimeoutMs },
          };
        }
        if (!(error instanceof AxiosError)) {
          // Node refuses some inputs synchronously (an invalid header value); nothing was sent.
          const message = error instanceof Error ? error.message : String(error);
          const code =
            error instanceof Error && 'code' in error && typeof error.code === 'string'
              ? error.code
              : undefined;
          return {
            ok: false,
            failure: { kind: 'network', requestSent: false, systemCode: code, message },
          };
        }
        if (error.message.startsWith('maxContentLength size of')) {
          return { ok: false, failure: { kind: 'too-large', maxBytes: request.maxBytes } };
        }
        const systemCode = systemCodeOf(error);
        if (systemCode === CONNECT_TIMEOUT_CODE) {
          return {
            ok: false,
            failure: { kind: 'timeout', phase: 'connect', timeoutMs: connectTimeoutMs },
          };
        }
        return {
          ok: false,
          failure: {
            kind: 'network',
            requestSent: systemCode === undefined || !notSentCodes.has(systemCode),
            systemCode,
            message: error.message,
          },
        };
      } finally {
        clearTimeout(timer);
        own?.httpAgent.destroy();
        own?.httpsAgent.destroy();
      }
    },
    close(): void {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}
