import type { z } from 'zod';
import { catalogMessages } from './catalog.ts';
import { customerMessages } from './customers.ts';
import { documentMessages } from './documents.ts';
import type { IpcResult } from './errors.ts';
import { ipcEvents } from './events.ts';
import { debitOutcomeMessages, giftCardMessages } from './gift-cards.ts';
import type { EventSpec, MessageSpec } from './message.ts';
import { printingMessages } from './printing.ts';
import { salesMessages, savMessages } from './sales.ts';
import { settingsMessages, statusMessages } from './status.ts';

/**
 * The whole renderer <-> main contract. Both hosts (Electron IPC and the loopback browser host),
 * the preload, the router and the renderer client are derived from these two tables, so a
 * message exists everywhere or nowhere.
 */
export const ipcMessages = {
  ...catalogMessages,
  ...customerMessages,
  ...salesMessages,
  ...savMessages,
  ...documentMessages,
  ...giftCardMessages,
  ...debitOutcomeMessages,
  ...printingMessages,
  ...statusMessages,
  ...settingsMessages,
} as const;

export { ipcEvents };

export type IpcMessages = typeof ipcMessages;
export type MessageName = keyof IpcMessages;
export type IpcEvents = typeof ipcEvents;
export type EventName = keyof IpcEvents;

export const messageNames = Object.keys(ipcMessages) as MessageName[];
export const eventNames = Object.keys(ipcEvents) as EventName[];

/** What the renderer passes (defaults not yet applied). */
export type RequestOf<N extends MessageName> = z.input<IpcMessages[N]['request']>;
/** What main parsed and hands to the service. */
export type ParsedRequestOf<N extends MessageName> = z.output<IpcMessages[N]['request']>;
export type ReplyOf<N extends MessageName> = z.output<IpcMessages[N]['reply']>;
export type EventPayloadOf<E extends EventName> = z.output<IpcEvents[E]['payload']>;

/** `onConnectivityChanged`, `onOutboxChanged`... */
export type ListenerName<E extends EventName> = `on${Capitalize<E>}`;

export function listenerNameOf<E extends EventName>(event: E): ListenerName<E> {
  return `on${event.charAt(0).toUpperCase()}${event.slice(1)}` as ListenerName<E>;
}

export type MessageMethod<N extends MessageName> =
  // Messages whose request may be empty can be called without an argument.
  Record<string, never> extends RequestOf<N>
    ? (request?: RequestOf<N>) => Promise<IpcResult<ReplyOf<N>>>
    : (request: RequestOf<N>) => Promise<IpcResult<ReplyOf<N>>>;

/**
 * `window.kiosk`, and the loopback client with the same surface: one named method per message,
 * one `on<Event>` per event returning its unsubscribe function. Nothing generic.
 */
export type KioskApi = { readonly [N in MessageName]: MessageMethod<N> } & {
  readonly [E in EventName as ListenerName<E>]: (
    callback: (payload: EventPayloadOf<E>) => void,
  ) => () => void;
};

/** How a `KioskApi` reaches main: send one message, or listen to one event until unsubscribed. */
export interface KioskTransport {
  call(name: MessageName, request: unknown): Promise<unknown>;
  subscribe(event: EventName, callback: unknown): () => void;
}

/**
 * The `KioskApi` over a transport (the preload's IPC, the loopback host's HTTP): one named method
 * per message, called with `{}` when given nothing, and one `on<Event>` per event.
 */
export function kioskApiOf(transport: KioskTransport): KioskApi {
  const api: Record<string, unknown> = {};
  for (const name of messageNames) {
    api[name] = (request?: unknown) => transport.call(name, request ?? {});
  }
  for (const event of eventNames) {
    api[listenerNameOf(event)] = (callback: unknown) => transport.subscribe(event, callback);
  }
  return Object.freeze(api) as KioskApi;
}

export function messageByChannel(channel: string): MessageName | undefined {
  for (const name of messageNames) {
    if (ipcMessages[name].channel === channel) return name;
  }
  return undefined;
}

/** The tables' types, checked: every entry is a message or an event spec. */
const _messagesAreSpecs: Readonly<Record<MessageName, MessageSpec>> = ipcMessages;
const _eventsAreSpecs: Readonly<Record<EventName, EventSpec>> = ipcEvents;
void _messagesAreSpecs;
void _eventsAreSpecs;
