/**
 * A stand-in for the `electron` module, typed by the package's own `ElectronModule`: Electron's
 * binary cannot run in this test. Windows load their page through their session's protocol
 * handler, as Chromium would, and IPC goes to the handlers the integration registered.
 */
import { EventEmitter } from 'node:events';
import type {
  BrowserWindowLike,
  ElectronModule,
  IpcInvokeEventLike,
  ProtocolHandler,
  SessionLike,
  WebContentsLike,
  WindowOptions,
} from 'commerce-kiosk';

type IpcHandler = (event: IpcInvokeEventLike, ...args: unknown[]) => unknown;

class FakeSession implements SessionLike {
  readonly handlers = new Map<string, ProtocolHandler>();
  readonly protocol = {
    handle: (scheme: string, handler: ProtocolHandler) => void this.handlers.set(scheme, handler),
    unhandle: (scheme: string) => void this.handlers.delete(scheme),
  };
  setPermissionRequestHandler(): void {}
  setPermissionCheckHandler(): void {}
}

let nextId = 1;

class FakeWebContents extends EventEmitter implements WebContentsLike {
  readonly id = nextId++;
  readonly session: FakeSession;
  constructor(session: FakeSession) {
    super();
    this.session = session;
  }
  setWindowOpenHandler(): void {}
  send(): void {}
  isDestroyed(): boolean {
    return false;
  }
  async getPrintersAsync() {
    return [];
  }
  print(_options: unknown, callback: (success: boolean, reason: string) => void): void {
    callback(false, 'no printer in this test');
  }
}

export interface FakeElectron extends ElectronModule {
  readonly ipcHandlers: Map<string, IpcHandler>;
  /** The status of each page a window loaded, by URL. */
  readonly loaded: Map<string, number>;
  /** The kiosk window's WebContents id, once it exists. */
  kioskContentsId?: number;
}

export function fakeElectron(): FakeElectron {
  const app = new EventEmitter();
  const sessions = new Map<string, FakeSession>();
  const sessionOf = (partition = '') => {
    const found = sessions.get(partition) ?? new FakeSession();
    sessions.set(partition, found);
    return found;
  };
  const fake: FakeElectron = {
    ipcHandlers: new Map(),
    loaded: new Map(),
    app: Object.assign(app, {
      isReady: () => true,
      whenReady: async () => undefined,
      requestSingleInstanceLock: () => true,
      quit: () => undefined,
    }),
    protocol: { registerSchemesAsPrivileged: () => undefined },
    session: { fromPartition: (partition: string) => sessionOf(partition) },
    ipcMain: {
      handle: (channel, listener) => void fake.ipcHandlers.set(channel, listener),
      removeHandler: (channel) => void fake.ipcHandlers.delete(channel),
    },
    BrowserWindow: class extends EventEmitter implements BrowserWindowLike {
      readonly webContents: FakeWebContents;
      #destroyed = false;
      constructor(options: WindowOptions) {
        super();
        this.webContents = new FakeWebContents(sessionOf(options.webPreferences?.partition));
        fake.kioskContentsId ??= this.webContents.id;
        app.emit('web-contents-created', {}, this.webContents);
      }
      async loadURL(url: string): Promise<void> {
        const handler = this.webContents.session.handlers.get(new URL(url).protocol.slice(0, -1));
        const response = await handler?.(new Request(url));
        fake.loaded.set(url, response?.status ?? 0);
        this.emit('ready-to-show');
      }
      show(): void {}
      focus(): void {}
      isMinimized(): boolean {
        return false;
      }
      restore(): void {}
      isDestroyed(): boolean {
        return this.#destroyed;
      }
      destroy(): void {
        this.#destroyed = true;
      }
    },
  };
  return fake;
}
