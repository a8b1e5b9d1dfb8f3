import { z } from 'zod';
import {
  type EventName,
  type KioskApi,
  type MessageName,
  eventNames,
  ipcEvents,
  kioskApiOf,
} from '../../shared/ipc/contract.ts';
import { type IpcResult, ipcErrorCodes, ipcResultOf } from '../../shared/ipc/errors.ts';
import {
  LOOPBACK_EVENTS_PATH,
  LOOPBACK_IPC_PATH,
  LOOPBACK_TOKEN_HEADER,
} from '../../shared/ipc/loopback.ts';

export interface LoopbackClientOptions {
  /** The host's origin, `http://127.0.0.1:<port>` (the page's own origin). */
  readonly origin: string;
  /** The per-run token from the URL fragment. */
  readonly token: string;
  readonly fetch?: typeof fetch;
  /** First reconnection delay of the event stream; doubled up to 30 s (default 1 s). */
  readonly reconnectMs?: number;
}

type AnyListener = (payload: unknown) => void;

let envelope: ReturnType<typeof ipcResultOf<z.ZodUnknown>> | undefined;
/** A result of any message, its value unchecked; built on the first reply. */
const resultEnvelope = () => (envelope ??= ipcResultOf(z.unknown()));

function transportError(message: string): IpcResult<never> {
  return { ok: false, error: { code: ipcErrorCodes.transport, message } };
}

/**
 * The same typed surface as the preload's `window.kiosk`, over the loopback host's HTTP
 * transport: one named method per message, one `on<Event>` per event.
 *
 * A reply is taken as the preload takes main's: the host that served this page checked it
 * against the contract before sending it (its router, as in Electron). The page checks only
 * that it is a result (`ok` with a value, or an error with its code), so a body from anything
 * else (a proxy's page, a server of another kind) is a transport error, never data. Checking
 * each reply's schema again cost the first screen about 10 ms of the page's one thread (its
 * three replies' schemas built and run) for a check the host had just made.
 */
export function createLoopbackClient(options: LoopbackClientOptions): KioskApi {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const headers = { 'content-type': 'application/json', [LOOPBACK_TOKEN_HEADER]: options.token };
  const listeners = new Map<string, Set<AnyListener>>();
  let stream: AbortController | undefined;

  async function call(name: MessageName, request: unknown): Promise<IpcResult<unknown>> {
    let response: Response;
    try {
      response = await doFetch(`${options.origin}${LOOPBACK_IPC_PATH}${name}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(request),
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch {
      return transportError('the kiosk host cannot be reached');
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      return transportError(`the kiosk host replied HTTP ${response.status} without a result`);
    }
    const parsed = resultEnvelope().safeParse(body);
    if (!parsed.success) {
      return transportError(`the kiosk host's reply to ${name} is not a kiosk result`);
    }
    return parsed.data as IpcResult<unknown>;
  }

  function dispatch(channel: string, data: string): void {
    const event = eventNames.find((name) => ipcEvents[name].channel === channel);
    if (event === undefined) return;
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      return;
    }
    const parsed = ipcEvents[event].payload.safeParse(payload);
    if (!parsed.success) return;
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        listener(parsed.data);
      } catch (error) {
        // One broken screen must not stop the others from hearing the event.
        console.error('kiosk event listener failed', error);
      }
    }
  }

  async function readStream(controller: AbortController): Promise<void> {
    let delay = options.reconnectMs ?? 1_000;
    while (!controller.signal.aborted) {
      try {
        const response = await doFetch(`${options.origin}${LOOPBACK_EVENTS_PATH}`, {
          method: 'POST',
          headers,
          body: '{}',
          credentials: 'omit',
          cache: 'no-store',
          signal: controller.signal,
        });
        if (!response.ok || response.body === null) throw new Error(`HTTP ${response.status}`);
        delay = options.reconnectMs ?? 1_000;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const record = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let channel = '';
            const data: string[] = [];
            for (const line of record.split('\n')) {
              if (line.startsWith('event: ')) channel = line.slice(7);
              else if (line.startsWith('data: ')) data.push(line.slice(6));
            }
            if (channel !== '') dispatch(channel, data.join('\n'));
          }
        }
      } catch {
        if (controller.signal.aborted) return;
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(30_000, delay * 2);
    }
  }

  function subscribe(event: EventName, callback: AnyListener): () => void {
    let set = listeners.get(event);
    if (set === undefined) {
      set = new Set();
      listeners.set(event, set);
    }
    set.add(callback);
    // One stream for all events, opened with the first listener and closed with the last.
    if (stream === undefined) {
      const controller = new AbortController();
      stream = controller;
      void readStream(controller);
    }
    return () => {
      set.delete(callback);
      const remaining = [...listeners.values()].reduce((sum, entry) => sum + entry.size, 0);
      if (remaining === 0 && stream !== undefined) {
        stream.abort();
        stream = undefined;
      }
    };
  }

  return kioskApiOf({
    call,
    subscribe: (event, callback) => subscribe(event, callback as AnyListener),
  });
}
