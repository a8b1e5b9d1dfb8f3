import { describe, expect, it, vi } from 'vitest';
import {
  eventNames,
  ipcEvents,
  ipcMessages,
  listenerNameOf,
  messageNames,
} from '../../../shared/ipc/index.ts';
import { type IpcRendererLike, buildKioskBridge } from '../../../electron/host/kiosk-bridge.ts';

const exposed = vi.hoisted(() => ({ calls: [] as { key: string; api: unknown }[] }));

vi.mock('electron', () => ({
  contextBridge: {
    exposeInMainWorld: (key: string, api: unknown) => exposed.calls.push({ key, api }),
  },
  ipcRenderer: {
    invoke: async () => ({ ok: true, value: null }),
    on: () => undefined,
    removeListener: () => undefined,
  },
}));

function fakeIpc() {
  const invoked: { channel: string; args: unknown[] }[] = [];
  const listeners = new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>();
  const ipc: IpcRendererLike = {
    invoke: async (channel, ...args) => {
      invoked.push({ channel, args });
      return { ok: true, value: channel };
    },
    on: (channel, listener) => {
      const set = listeners.get(channel) ?? new Set();
      set.add(listener);
      listeners.set(channel, set);
    },
    removeListener: (channel, listener) => listeners.get(channel)?.delete(listener),
  };
  return { ipc, invoked, listeners };
}

describe('the preload bridge (window.kiosk)', () => {
  it('exposes exactly one method per message and one listener per event', () => {
    const api = buildKioskBridge(fakeIpc().ipc) as unknown as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual(
      [...messageNames, ...eventNames.map(listenerNameOf)].sort(),
    );
    for (const key of Object.keys(api)) expect(typeof api[key]).toBe('function');
    expect(Object.isFrozen(api)).toBe(true);
    for (const generic of ['invoke', 'send', 'on', 'ipcRenderer', 'sendSync']) {
      expect(api[generic]).toBeUndefined();
    }
  });

  it('binds each method to its own channel; the renderer cannot choose one', async () => {
    const { ipc, invoked } = fakeIpc();
    const api = buildKioskBridge(ipc);
    await api.searchProducts({ text: 'four' });
    await api.getStatus();
    // Extra arguments are not forwarded: only the request crosses.
    await (api.getSale as (...args: unknown[]) => Promise<unknown>)(
      { saleId: 's' },
      'kiosk:setCredentials',
    );
    expect(invoked).toEqual([
      { channel: ipcMessages.searchProducts.channel, args: [{ text: 'four' }] },
      { channel: ipcMessages.getStatus.channel, args: [{}] },
      { channel: ipcMessages.getSale.channel, args: [{ saleId: 's' }] },
    ]);
  });

  it('hands listeners the payload only, never the IPC event, and unsubscribes', () => {
    const { ipc, listeners } = fakeIpc();
    const api = buildKioskBridge(ipc);
    const received: unknown[][] = [];
    const off = api.onOutboxChanged((...args: unknown[]) => received.push(args));
    const channel = ipcEvents.outboxChanged.channel;
    const electronEvent = { sender: { send: () => undefined }, senderFrame: {} };
    for (const listener of listeners.get(channel) ?? [])
      listener(electronEvent, { type: 'sender-resumed' });
    expect(received).toEqual([[{ type: 'sender-resumed' }]]);
    off();
    off();
    expect(listeners.get(channel)?.size).toBe(0);
    expect(() => (api.onSyncProgress as (cb: unknown) => unknown)('not a function')).toThrow(
      TypeError,
    );
  });

  it('preload.ts exposes the bridge as window.kiosk and nothing else', async () => {
    await import('../../../electron/preload.ts');
    expect(exposed.calls.map((call) => call.key)).toEqual(['kiosk']);
    const api = exposed.calls[0]!.api as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual(
      [...messageNames, ...eventNames.map(listenerNameOf)].sort(),
    );
  });
});
