import type {
  BrowserWindowLike,
  ElectronModule,
  IpcInvokeEventLike,
  PermissionRequestHandler,
  PreventableEvent,
  PrivilegedScheme as CustomScheme,
  ProtocolHandler,
  SessionLike,
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
  removeListener(event: string, listener: Listener): this {
    const left = (this.listeners.get(event) ?? []).filter((entry) => entry !== listener);
    if (left.length === 0) this.listeners.delete(event);
    else this.listeners.set(event, left);
    return this;
  }
  listenerCount(event: string): number {
    return this.listeners.get(event)?.length ?? 0;
  }
  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? [])
      (listener as (...a: unknown[]) => unknown)(...args);
  }
}

let nextId = 1;

/** A session: the default one, or one per partition, each with its own handlers. */
export class FakeSession implements SessionLike {
  readonly partition: string;
  permissionRequestHandler: PermissionRequestHandler | null | undefined;
  permissionCheckHandler: ((contents: unknown, permission: string) => boolean) | null | undefined;
  readonly protocolHandlers = new Map<string, ProtocolHandler>();
  readonly protocol = {
    handle: (scheme: string, handler: ProtocolHandler): void => {
      // As Electron: a second handler for the same scheme on one session is an error.
      if (this.protocolHandlers.has(scheme)) throw new Error(`${scheme} is already handled`);
      this.protocolHandlers.set(scheme, handler);
    },
    unhandle: (scheme: string): void => {
      this.protocolHandlers.delete(scheme);
    },
  };
  constructor(partition: string) {
    this.partition = partition;
  }
  setPermissionRequestHandler(handler: PermissionRequestHandler | null): void {
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(
    handler: ((contents: unknown, permission: string) => boolean) | null,
  ): void {
    this.permissionCheckHandler = handler;
  }
}

export class FakeWebContents extends Emitter implements WebContentsLike {
  readonly id = nextId++;
  readonly session: FakeSession;
  windowOpenHandler: ((details: { url: string }) => { action: 'deny' }) | undefined;
  readonly sent: { channel: string; payload: unknown }[] = [];
  destroyed = false;
  constructor(session: FakeSession) {
    super();
    this.session = session;
  }
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
  readonly ipcHandlers: Map<string, (event: IpcInvokeEventLike, ...args: unknown[]) => unknown>;
  readonly appEvents: Emitter;
  /** The module-level `protocol`, as Electron's: its handlers are the default session's. */
  readonly protocol: ElectronModule['protocol'] & FakeSession['protocol'];
  readonly session: {
    readonly defaultSession: FakeSession;
    fromPartition(partition: string): FakeSession;
  };
  /** The partition sessions created so far, by partition. */
  readonly partitions: Map<string, FakeSession>;
  singleInstanceLock: boolean;
  /** How many times `app.requestSingleInstanceLock()` was called. */
  singleInstanceRequests: number;
  quitCalled: boolean;
  /** What `app.getLocale()` answers: the system language. */
  systemLocale: string;
}

export class FakeWindow extends Emitter implements BrowserWindowLike {
  readonly webContents: FakeWebContents;
  readonly options: BrowserWindowConstructorOptions;
  loadedUrl: string | undefined;
  shown = false;
  destroyed = false;
  constructor(
    options: BrowserWindowConstructorOptions,
    session: FakeSession,
    created: (window: FakeWindow) => void,
  ) {
    super();
    this.options = options;
    this.webContents = new FakeWebContents(session);
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
  const defaultSession = new FakeSession('');
  const partitions = new Map<string, FakeSession>();
  // As Electron: the empty partition is the default session; one session per partition name.
  const fromPartition = (partition: string): FakeSession => {
    if (partition === '') return defaultSession;
    let session = partitions.get(partition);
    if (session === undefined) {
      session = new FakeSession(partition);
      partitions.set(partition, session);
    }
    return session;
  };
  const fake: FakeElectron = {
    windows: [],
    privileged: [],
    ipcHandlers: new Map(),
    appEvents,
    partitions,
    singleInstanceLock: true,
    singleInstanceRequests: 0,
    quitCalled: false,
    systemLocale: 'fr-FR',
    app: {
      getLocale: () => fake.systemLocale,
      isReady: () => true,
      whenReady: async () => undefined,
      requestSingleInstanceLock: () => {
        fake.singleInstanceRequests += 1;
        return fake.singleInstanceLock;
      },
      on: (event: string, listener: Listener) => appEvents.on(event, listener),
      removeListener: (event: string, listener: Listener) =>
        appEvents.removeListener(event, listener),
      quit: () => {
        fake.quitCalled = true;
      },
    } as ElectronModule['app'],
    protocol: {
      registerSchemesAsPrivileged: (schemes) => fake.privileged.push(...schemes),
      handle: defaultSession.protocol.handle,
      unhandle: defaultSession.protocol.unhandle,
    },
    session: { defaultSession, fromPartition },
    ipcMain: {
      handle: (channel, listener) => {
        if (fake.ipcHandlers.has(channel)) throw new Error(`second handler for ${channel}`);
        fake.ipcHandlers.set(channel, listener);
      },
      removeHandler: (channel) => fake.ipcHandlers.delete(channel),
    },
    BrowserWindow: class extends FakeWindow {
      constructor(options: BrowserWindowConstructorOptions) {
        super(options, fromPartition(options.webPreferences?.partition ?? ''), (window) => {
          fake.windows.push(window);
          appEvents.emit('web-contents-created', {}, window.webContents);
        });
      }
    },
  };
  return fake;
}
