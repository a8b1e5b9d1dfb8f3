import type { BrowserWindowConstructorOptions, CustomScheme } from 'electron';
import type {
  ElectronModule,
  PreventableEvent,
  SessionLike,
  WebContentsLike,
} from './electron-module.ts';

/**
 * The renderer's origin: a privileged, standard, secure custom scheme, `<scheme>://kiosk`. The
 * scheme is the integrator's choice (`scheme` option), so it cannot clash with one of theirs.
 */
export const DEFAULT_KIOSK_SCHEME = 'commerce-kiosk';
export const KIOSK_HOST = 'kiosk';
/** The kiosk's own session: its storage, permissions and protocol, apart from the host's. */
export const DEFAULT_KIOSK_PARTITION = 'persist:commerce-kiosk';

/** Schemes Chromium or the web already own: serving the kiosk on one would hijack it. */
const RESERVED_SCHEMES: ReadonlySet<string> = new Set([
  'http',
  'https',
  'file',
  'data',
  'blob',
  'javascript',
  'about',
  'ws',
  'wss',
  'filesystem',
  'chrome',
  'chrome-extension',
  'devtools',
  'view-source',
]);

/**
 * The scheme, checked: lowercase RFC 3986 scheme characters (a letter, then letters, digits,
 * `+`, `-`, `.`), and none the web or Chromium already own. Throws a RangeError naming `option`.
 */
export function checkKioskScheme(scheme: string, option = 'scheme'): string {
  if (typeof scheme !== 'string' || !/^[a-z][a-z0-9+.-]*$/.test(scheme)) {
    throw new RangeError(
      `${option}: must be a lowercase URL scheme (a letter, then letters, digits, "+", "-" or "."), got ${JSON.stringify(scheme)}`,
    );
  }
  if (RESERVED_SCHEMES.has(scheme)) {
    throw new RangeError(
      `${option}: "${scheme}" belongs to the web or to Chromium; choose a scheme of the kiosk's own (default "${DEFAULT_KIOSK_SCHEME}")`,
    );
  }
  return scheme;
}

/** `<scheme>://kiosk`: the origin of the kiosk page, the only one the IPC router answers. */
export function kioskOrigin(scheme: string = DEFAULT_KIOSK_SCHEME): string {
  return `${checkKioskScheme(scheme)}://${KIOSK_HOST}`;
}

/** The page the kiosk window loads. */
export function kioskEntryUrl(scheme: string = DEFAULT_KIOSK_SCHEME): string {
  return `${kioskOrigin(scheme)}/index.html`;
}

/**
 * The partition, checked: any non-empty name (`persist:` keeps its storage on disk). The empty
 * name is Electron's default session, the host's: the kiosk never takes that one over.
 */
export function checkKioskPartition(partition: string, option = 'partition'): string {
  if (typeof partition !== 'string' || partition.trim() === '') {
    throw new RangeError(
      `${option}: must name a session partition of the kiosk's own (default "${DEFAULT_KIOSK_PARTITION}"), not the default session; got ${JSON.stringify(partition)}`,
    );
  }
  return partition;
}

export interface KioskWindowOptions {
  /** Electron's kiosk mode: full screen, no way out for the public (default false). */
  readonly kiosk?: boolean;
  readonly fullscreen?: boolean;
  readonly width?: number;
  readonly height?: number;
  /** Developer tools: off in production; an integrator may enable them on a bench machine. */
  readonly devTools?: boolean;
}

/**
 * The kiosk window's options, on the kiosk's own session partition. Every security-relevant
 * preference is spelled out rather than left to Electron's defaults, so a test can assert it and
 * an Electron upgrade cannot flip it.
 */
export function kioskWindowOptions(
  preloadPath: string,
  options: KioskWindowOptions = {},
  partition: string = DEFAULT_KIOSK_PARTITION,
): BrowserWindowConstructorOptions {
  return {
    width: options.width ?? 1280,
    height: options.height ?? 800,
    kiosk: options.kiosk ?? false,
    fullscreen: options.fullscreen ?? options.kiosk ?? false,
    show: false,
    autoHideMenuBar: true,
    backgroundColor: '#ffffff',
    webPreferences: {
      preload: preloadPath,
      partition,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      devTools: options.devTools ?? false,
    },
  };
}

/**
 * Applied to every WebContents of the kiosk's session (the kiosk window, hidden print windows),
 * never to the host's: no navigation away, no redirect, no new window, no <webview>. The kiosk is
 * one page; a link that slipped into data (a product description) must not take staff, or the
 * bridge, anywhere else.
 */
export function hardenWebContents(contents: WebContentsLike): void {
  const deny = (event: PreventableEvent) => event.preventDefault();
  contents.on('will-navigate', deny);
  contents.on('will-redirect', deny);
  contents.on('will-attach-webview', deny);
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

/**
 * Every permission request (camera, notifications, geolocation, HID...) of the kiosk's session
 * is refused, and every permission check answers no: the kiosk page needs none of them. The
 * host's sessions keep their own handlers.
 */
export function denyAllPermissions(session: SessionLike): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

/**
 * The kiosk scheme's privileges, for the host's one `protocol.registerSchemesAsPrivileged` call
 * (Electron takes one per app, before 'ready'): standard (real origins, so same-origin rules and
 * the CSP apply), secure (a secure context, like https), fetch allowed, V8's code cache. No CSP
 * bypass, no service workers, no CORS opening, no streaming. Throws on an invalid scheme.
 */
export function kioskSchemePrivileges(scheme: string = DEFAULT_KIOSK_SCHEME): CustomScheme {
  return {
    scheme: checkKioskScheme(scheme),
    privileges: {
      standard: true,
      secure: true,
      supportFetchAPI: true,
      codeCache: true,
      bypassCSP: false,
      allowServiceWorkers: false,
      corsEnabled: false,
      stream: false,
    },
  };
}

/**
 * For a host with no privileged schemes of its own: registers the kiosk's (before 'ready').
 * A host with its own merges `kioskSchemePrivileges(scheme)` into its single call instead.
 */
export function registerKioskScheme(
  electron: Pick<ElectronModule, 'protocol'>,
  scheme: string = DEFAULT_KIOSK_SCHEME,
): void {
  electron.protocol.registerSchemesAsPrivileged([kioskSchemePrivileges(scheme)]);
}
