import {
  type KioskApi,
  ipcEvents,
  ipcMessages,
  kioskApiOf,
  listenerNameOf,
} from '../../shared/ipc/contract.ts';

/** What the preload needs of `ipcRenderer`. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

/**
 * `window.kiosk`: one named method per message, each bound to its own channel (there is no
 * method taking a channel), and one `on<Event>` per event whose callback receives the payload
 * alone, never Electron's event object (it carries `sender`, a way back into IPC).
 */
export function buildKioskBridge(ipc: IpcRendererLike): KioskApi {
  return kioskApiOf({
    call: (name, request) => ipc.invoke(ipcMessages[name].channel, request),
    subscribe: (event, callback) => {
      if (typeof callback !== 'function') {
        throw new TypeError(`${listenerNameOf(event)} expects a function`);
      }
      const channel = ipcEvents[event].channel;
      const listener = (_event: unknown, payload: unknown) => {
        (callback as (payload: unknown) => void)(payload);
      };
      ipc.on(channel, listener);
      let subscribed = true;
      return () => {
        if (!subscribed) return;
        subscribed = false;
        ipc.removeListener(channel, listener);
      };
    },
  });
}
