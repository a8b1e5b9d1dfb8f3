import type { KioskApi } from '../../../shared/ipc/contract.ts';

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
