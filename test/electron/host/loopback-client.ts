import type { KioskApi } from '../../../shared/ipc/contract.ts';
import { LOOPBACK_EVENTS_PATH } from '../../../shared/ipc/loopback.ts';

/**
 * The renderer's loopback client (renderer/ipc/loopback-client.ts), loaded for tests that drive
 * the browser host from Node. The renderer belongs to the web TypeScript project, not the Node
 * one these tests compile in, so it is imported by a computed path and typed here from the
 * contract (its public signature).
 */
export type CreateLoopbackClient = (options: {
  readonly origin: string;
  readonly token: string;
  readonly fetch?: typeof fetch;
}) => KioskApi;

const clientModule = new URL('../../../renderer/ipc/loopback-client.ts', import.meta.url).href;

export async function loadLoopbackClient(): Promise<CreateLoopbackClient> {
  const module = (await import(clientModule)) as { createLoopbackClient: CreateLoopbackClient };
  return module.createLoopbackClient;
}

/** Node's fetch sends no Origin of its own; a browser always does on POST. */
export function pageFetch(origin: string): typeof fetch {
  return (input, init) =>
    fetch(input, {
      ...init,
      headers: { ...(init?.headers as Record<string, string>), origin },
    });
}

/**
 * A fetch that also says when the client's event stream is open. The host subscribes the stream
 * to the kiosk's events before its first byte leaves, so from then on no event is missed: a test
 * waits for this, not for a delay, before it causes the events it listens for.
 */
export function streamWatchingFetch(inner: typeof fetch): {
  readonly fetch: typeof fetch;
  readonly streamOpen: Promise<void>;
} {
  let opened!: () => void;
  const streamOpen = new Promise<void>((resolve) => (opened = resolve));
  return {
    streamOpen,
    fetch: async (input, init) => {
      const response = await inner(input, init);
      if (new URL(String(input)).pathname === LOOPBACK_EVENTS_PATH && response.ok) opened();
      return response;
    },
  };
}
