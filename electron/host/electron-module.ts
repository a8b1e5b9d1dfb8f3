import type { BrowserWindowConstructorOptions, CustomScheme, PrinterInfo } from 'electron';
import type { SafeStorageApi } from '../credentials/index.ts';

/** Electron's own types, re-exported for code that may not import `electron` (tests). */
export type WindowOptions = BrowserWindowConstructorOptions;
export type PrivilegedScheme = CustomScheme;

/**
 * The part of the `electron` module the kiosk uses, as plain structural types. The demo app
 * passes the real module (type-checked against these in main.ts); unit tests pass a fake, so the
 * whole shell runs under plain Node, where `require('electron')` throws.
 */

export interface PreventableEvent {
  preventDefault(): void;
}

export interface WebFrameLike {
  readonly url: string;
  /** Null for a main frame. */
  readonly parent: WebFrameLike | null;
}

export interface IpcInvokeEventLike {
  /** Null when the frame navigated away or was destroyed before the handler ran. */
  readonly senderFrame: WebFrameLike | null;
  readonly sender: { readonly id: number };
}

export interface WebContentsLike {
  readonly id: number;
  /** The session it belongs to: the kiosk hardens only those of its own session. */
  readonly session: SessionLike;
  on(event: 'will-navigate', listener: (event: PreventableEvent, url: string) => void): unknown;
  on(event: 'will-redirect', listener: (event: PreventableEvent, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  setWindowOpenHandler(handler: (details: { readonly url: string }) => { action: 'deny' }): void;
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
  getPrintersAsync(): Promise<PrinterInfo[]>;
  print(
    options: Record<string, unknown>,
    callback: (success: boolean, failureReason: string) => void,
  ): void;
}

export interface BrowserWindowLike {
  readonly webContents: WebContentsLike;
  loadURL(url: string): Promise<void>;
  once(event: 'ready-to-show', listener: () => void): unknown;
  on(event: 'closed', listener: () => void): unknown;
  show(): void;
  focus(): void;
  isMinimized(): boolean;
  restore(): void;
  isDestroyed(): boolean;
  destroy(): void;
}

export type PermissionRequestHandler = (
  webContents: unknown,
  permission: string,
  callback: (granted: boolean) => void,
) => void;

export type ProtocolHandler = (request: Request) => Response | Promise<Response>;

export interface SessionLike {
  setPermissionRequestHandler(handler: PermissionRequestHandler | null): void;
  setPermissionCheckHandler(
    handler: ((webContents: unknown, permission: string) => boolean) | null,
  ): void;
  /** This session's protocols (the module-level `protocol` is the default session's). */
  readonly protocol: {
    handle(scheme: string, handler: ProtocolHandler): void;
    unhandle(scheme: string): void;
  };
}

export type SecondInstanceListener = () => void;
export type WebContentsCreatedListener = (event: unknown, contents: WebContentsLike) => void;

export interface ElectronModule {
  readonly app: {
    isReady(): boolean;
    whenReady(): Promise<void>;
    requestSingleInstanceLock(): boolean;
    /** The system locale (`fr-FR`), valid once the app is ready; the kiosk's default language. */
    getLocale?(): string;
    on(event: 'second-instance', listener: SecondInstanceListener): unknown;
    on(event: 'web-contents-created', listener: WebContentsCreatedListener): unknown;
    removeListener(event: 'second-instance', listener: SecondInstanceListener): unknown;
    removeListener(event: 'web-contents-created', listener: WebContentsCreatedListener): unknown;
    quit(): void;
  };
  /** Only to register the kiosk scheme as privileged; handlers go on the kiosk's session. */
  readonly protocol: {
    registerSchemesAsPrivileged(schemes: CustomScheme[]): void;
  };
  /** The kiosk's own session only: it never takes the default session (the host's). */
  readonly session: {
    /** Valid once the app is ready; the same session for the same partition. */
    fromPartition(partition: string): SessionLike;
  };
  readonly ipcMain: {
    handle(
      channel: string,
      listener: (event: IpcInvokeEventLike, ...args: unknown[]) => Promise<unknown> | unknown,
    ): void;
    removeHandler(channel: string): void;
  };
  readonly BrowserWindow: new (options: BrowserWindowConstructorOptions) => BrowserWindowLike;
  /** For the safeStorage credential backend; a fake may leave it out. */
  readonly safeStorage?: SafeStorageApi;
}
