import type { BrowserWindowConstructorOptions } from 'electron';
import type { ElectronModule, PreventableEvent, WebContentsLike } from './electron-module.ts';

/** The renderer's origin: a privileged, standard, secure custom scheme. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'kiosk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

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
 * The kiosk window's options. Every security-relevant preference is spelled out rather than
 * left to Electron's defaults, so a test can assert it and an Electron upgrade cannot flip it.
 */
export function kioskWindowOptions(
  preloadPath: string,
  options: KioskWindowOptions = {},
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
 * Applied to every WebContents the app creates (the kiosk window, hidden print windows): no
 * navigation away, no redirect, no new window, no <webview>. The kiosk is one page; a link that
 * slipped into data (a product description) must not take staff, or the bridge, anywhere else.
 */
export function hardenWebContents(contents: WebContentsLike): void {
  const deny = (event: PreventableEvent) => event.preventDefault();
  contents.on('will-navigate', deny);
  contents.on('will-redirect', deny);
  contents.on('will-attach-webview', deny);
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

/**
 * Every permission request (camera, notifications, geolocation, HID...) is refused, and every
 * permission check answers no: the kiosk page needs none of them.
 */
export function denyAllPermissions(electron: Pick<ElectronModule, 'session'>): void {
  const session = electron.session.defaultSession;
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

/**
 * `app://` must be registered as privileged before the app is ready: standard (real origins, so
 * same-origin rules and the CSP apply), secure (a secure context, like https), fetch allowed.
 * No CSP bypass, no service workers, no CORS opening.
 */
export function registerKioskScheme(electron: Pick<ElectronModule, 'protocol'>): void {
  electron.protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
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
    },
  ]);
}
