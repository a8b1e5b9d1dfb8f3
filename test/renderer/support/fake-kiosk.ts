import {
  eventNames,
  listenerNameOf,
  messageNames,
  type EventName,
  type EventPayloadOf,
  type KioskApi,
  type MessageName,
  type ReplyOf,
  type RequestOf,
} from '../../../shared/ipc/contract.ts';
import type { IpcError, IpcResult } from '../../../shared/ipc/errors.ts';
import { defaultReplies } from './fixtures.ts';

type Handler<N extends MessageName> = (
  request: RequestOf<N>,
) => IpcResult<ReplyOf<N>> | Promise<IpcResult<ReplyOf<N>>>;

export type Handlers = { [N in MessageName]?: Handler<N> };

export interface FakeKiosk {
  /** The typed surface the stores get: the same shape as window.kiosk. */
  readonly api: KioskApi;
  /** Every request, in order, by message. */
  readonly calls: { readonly name: MessageName; readonly request: unknown }[];
  callsOf<N extends MessageName>(name: N): RequestOf<N>[];
  /** Replace (or add) the handler of one message. */
  on<N extends MessageName>(name: N, handler: Handler<N>): void;
  /** Push an event to the renderer, as main would. */
  emit<E extends EventName>(event: E, payload: EventPayloadOf<E>): void;
  listenerCount(event: EventName): number;
}

export const ok = <T>(value: T): IpcResult<T> => ({ ok: true, value });
export const fail = (error: IpcError): IpcResult<never> => ({ ok: false, error });

/**
 * An in-test implementation of the kiosk surface (the store layer's only dependency): replies
 * come from per-test handlers, or from sample data when a test does not care about a message.
 */
export function fakeKiosk(handlers: Handlers = {}): FakeKiosk {
  const table: Record<string, (request: unknown) => unknown> = {
    ...(defaultReplies as Record<string, (request: unknown) => unknown>),
    ...(handlers as Record<string, (request: unknown) => unknown>),
  };
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const calls: { name: MessageName; request: unknown }[] = [];

  const api: Record<string, unknown> = {};
  for (const name of messageNames) {
    api[name] = async (request?: unknown) => {
      calls.push({ name, request });
      const handler = table[name];
      if (!handler) return fail({ code: 'TEST_NOT_STUBBED', message: `${name} is not stubbed` });
      return handler(request ?? {});
    };
  }
  for (const event of eventNames) {
    api[listenerNameOf(event)] = (callback: (payload: unknown) => void) => {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(callback);
      return () => set.delete(callback);
    };
  }

  return {
    api: api as KioskApi,
    calls,
    callsOf: <N extends MessageName>(name: N) =>
      calls.filter((call) => call.name === name).map((call) => call.request as RequestOf<N>),
    on: (name, handler) => {
      table[name] = handler as (request: unknown) => unknown;
    },
    emit: (event, payload) => {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    },
    listenerCount: (event) => listeners.get(event)?.size ?? 0,
  };
}
