import type {
  BrowserWindowLike,
  ElectronModule,
  IpcInvokeEventLike,
  PermissionRequestHandler,
  PreventableEvent,
  PrivilegedScheme as CustomScheme,
  WebContentsLike,
  WindowOptions as BrowserWindowConstructorOptions,
} from '../../../electron/host/electron-module.ts';

type Listener = (...args: never[]) => unknown;

class Emitter {
  readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  once(event: string, listener: Listener): this {
    return this.on(event, listener);
  }
  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? [])
      (listener as (...a: unknown[]) => unknown)(...args);
  }
}

let nextId = 1;

export class FakeWebContents extends Emitter implements WebContentsLike {
  readonly id = nextId++;
  windowOpenHandler: ((details: { url: string }) => { action: 'deny' }) | undefined;
  readonly sent: { channel: string; payload: unknown }[] = [];
  destroyed = false;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void {
    this.windowOpenHandler = handler;
  }
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload });
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  async getPrintersAsync() {
    return [];
  }
  print(
    _options: Record<string, unknown>,
    callback: (success: boolean, reason: string) => void,
  ): void {
    callback(true, '');
  }
  /** Fires a navigation as Chromium would; returns whether something prevented it. */
  navigate(event: 'will-navigate' | 'will-redirect', url: string): boolean {
    let prevented = false;
    const preventable: PreventableEvent = { preventDefault: () => (prevented = true) };
    this.emit(event, preventable, url);
    return prevented;
  }
}

export interface FakeElectron extends ElectronModule {
  readonly windows: FakeWindow[];
  readonly privileged: CustomScheme[];
  readonly protocolHandlers: Map<string, (request: Request) => Response | Promise<Response>>;
  readonly ipcHandlers: Map<string, (event: IpcInvokeEventLike, ...args: unknown[]) => unknown>;
  readonly appEvents: Emitter;
  permissionRequestHandler: PermissionRequestHandler | null | undefined;
  permissionCheckHandler: ((contents: unknown, permission: string) => boolean) | null | undefined;
  singleInstanceLock: boolean;
  quitCalled: boolean;
  /** What `app.getLocale()` answers: the system language. */
  systemLocale: string;
}

export class FakeWindow extends Emitter implements BrowserWindowLike {
  readonly webContents = new FakeWebContents();
  readonly options: BrowserWindowConstructorOptions;
  loadedUrl: string | undefined;
  shown = false;
  destroyed = false;
  constructor(options: BrowserWindowConstructorOptions, created: (window: FakeWindow) => void) {
    super();
    this.options = options;
    created(this);
  }
  async loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
    this.emit('ready-to-show');
  }
  show(): void {
    this.shown = true;
  }
  focus(): void {}
  isMinimized(): boolean {
    return false;
  }
  restore(): void {}
  isDestroyed(): boolean {
    return this.destroyed;
  }
  destroy(): void {
    this.destroyed = true;
    this.webContents.destroyed = true;
  }
}

/** A stand-in for the `electron` module with the behaviour the kiosk relies on, recorded. */
export function fakeElectron(): FakeElectron {
  const appEvents = new Emitter();
  const fake: FakeElectron = {
    windows: [],
    privileged: [],
    protocolHandlers: new Map(),
    ipcHandlers: new Map(),
    appEvents,
    permissionRequestHandler: undefined,
    permissionCheckHandler: undefined,
    singleInstanceLock: true,
    quitCalled: false,
    systemLocale: 'fr-FR',
    app: {
      getLocale: () => fake.systemLocale,
      isReady: () => true,
      whenReady: async () => undefined,
      requestSingleInstanceLock: () => fake.singleInstanceLock,
      on: (event: string, listener: Listener) => appEvents.on(event, listener),
      quit: () => {
        fake.quitCalled = true;
      },
    } as ElectronModule['app'],
    protocol: {
      registerSchemesAsPrivileged: (schemes) => fake.privileged.push(...schemes),
      handle: (scheme, handler) => fake.protocolHandlers.set(scheme, handler),
      unhandle: (scheme) => fake.protocolHandlers.delete(scheme),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler) => (fake.permissionRequestHandler = handler),
        setPermissionCheckHandler: (handler) => (fake.permissionCheckHandler = handler),
      },
    },
    ipcMain: {
      handle: (channel, listener) => {
        if (fake.ipcHandlers.has(channel)) throw new Error(`second handler for ${channel}`);
        fake.ipcHandlers.set(channel, listener);
      },
      removeHandler: (channel) => fake.ipcHandlers.delete(channel),
    },
    BrowserWindow: class extends FakeWindow {
      constructor(options: BrowserWindowConstructorOptions) {
        super(options, (window) => {
          fake.windows.push(window);
          appEvents.emit('web-contents-created', {}, window.webContents);
        });
      }
    },
  };
  return fake;
}
