import { resolve } from 'node:path';
import type { PrintingConfig } from '../printing/index.ts';
import { createIpcRouter, type IpcRouter, publishEvents, type SenderInfo } from '../ipc/index.ts';
import { createVaultChain, type VaultConfig } from '../credentials/index.ts';
import {
  createKioskServices,
  fixedCredentials,
  type KioskCredentials,
  type KioskServices,
  savedApiBaseUrl,
  vaultCredentials,
} from '../kiosk/index.ts';
import type { OfflineLimits } from '../outbox/index.ts';
import { type Logger, silentLogger } from '../logging/index.ts';
import type { KioskSettings } from '../../shared/ipc/status.ts';
import { appProtocolHandler } from './app-protocol.ts';
import type { BrowserWindowLike, ElectronModule, IpcInvokeEventLike } from './electron-module.ts';
import { electronPrintHost } from './electron-print-host.ts';
import {
  APP_ENTRY_URL,
  APP_ORIGIN,
  APP_SCHEME,
  type KioskWindowOptions,
  denyAllPermissions,
  hardenWebContents,
  kioskWindowOptions,
} from './kiosk-window.ts';

/** The embedded sandbox, started when no real base URL is configured (the demo kiosk). */
export interface EmbeddedSandbox {
  readonly baseUrl: string;
  readonly accounts: readonly { readonly email: string; readonly password: string }[];
  close(): Promise<void>;
}

export interface KioskIntegrationOptions {
  /** The `electron` module, injected: the integrator's own import (or a test's fake). */
  readonly electron: ElectronModule;
  /** Where the database, settings and logs of this kiosk live (e.g. `app.getPath('userData')`). */
  readonly dataDir: string;
  /**
   * The Commerce API; absent: the embedded sandbox with demo data ('demo' badge in the UI). An
   * administrator's choice saved in setup (in `dataDir`) takes precedence at the next start.
   */
  readonly baseUrl?: string;
  /**
   * The credentials with `baseUrl` (the sandbox brings its own demo account): a vault
   * configuration (which backends, forced or in order; the default chain when absent, with
   * Electron's safeStorage and `dataDir`), or ready-made credentials (an integrator's own).
   */
  readonly vault?: VaultConfig | KioskCredentials;
  /** Offline limits of the gift-card outbox. */
  readonly limits?: Partial<OfflineLimits>;
  /** Print backend, printer, paper, CUPS server. */
  readonly printers?: PrintingConfig;
  /** The kiosk's shop. */
  readonly shopId?: string;
  /** The administrator PIN guarding settings and credentials (4 to 12 digits). */
  readonly adminPin?: string;
  /** The default language; absent: the system's (`app.getLocale()`), French or English. */
  readonly locale?: KioskSettings['locale'];
  readonly window?: KioskWindowOptions;
  /** The built renderer folder (`dist/renderer`) and the bundled preload (`preload.cjs`). */
  readonly rendererDir: string;
  readonly preloadPath: string;
  /** Quit when another instance already runs (default true; an integrator may manage it). */
  readonly singleInstance?: boolean;
  /** Starts the embedded sandbox (demo); injected so an integrator build can leave it out. */
  readonly startSandbox?: () => Promise<EmbeddedSandbox>;
  readonly versions?: { readonly electron?: string | null; readonly chrome?: string | null };
  readonly logger?: Logger;
}

export type KioskIntegration =
  | {
      readonly status: 'running';
      readonly window: BrowserWindowLike;
      readonly services: KioskServices;
      readonly router: IpcRouter;
      readonly demo: boolean;
      /** Stops the services, the sandbox and the IPC handlers; closes the window. */
      close(): Promise<void>;
    }
  /** Another instance holds the single-instance lock: this one quits. */
  | { readonly status: 'second-instance' };

function isKioskCredentials(value: VaultConfig | KioskCredentials): value is KioskCredentials {
  return 'store' in value && 'provider' in value;
}

/** Ready-made credentials, or the vault chain a configuration describes (throws when invalid). */
function credentialsOf(
  vault: VaultConfig | KioskCredentials | undefined,
  dataDir: string,
  electron: Pick<ElectronModule, 'safeStorage'>,
): KioskCredentials {
  if (vault !== undefined && isKioskCredentials(vault)) return vault;
  const chain = createVaultChain(
    { dataDir, ...vault },
    electron.safeStorage === undefined ? {} : { safeStorage: electron.safeStorage },
  );
  return vaultCredentials(chain);
}

/**
 * The service this start uses: the base URL an administrator saved in setup (or the sandbox they
 * chose, when this build has one), else the integrator's `baseUrl`, else the sandbox.
 */
export function chooseBaseUrl(
  options: Pick<KioskIntegrationOptions, 'dataDir' | 'baseUrl' | 'startSandbox'>,
  logger: Logger = silentLogger,
): string | undefined {
  const saved = savedApiBaseUrl(options.dataDir, logger);
  if (saved === undefined) return options.baseUrl;
  if (saved === null && options.startSandbox === undefined) {
    logger.warn('kiosk.host.saved_sandbox_unavailable', {});
    return options.baseUrl;
  }
  return saved ?? undefined;
}

/** Electron's system locale, once ready; nothing when the module (a fake) has none. */
function systemLocaleOf(
  electron: ElectronModule,
  logger: Logger,
): { readonly systemLocale?: string } {
  try {
    const locale = electron.app.getLocale?.();
    return locale ? { systemLocale: locale } : {};
  } catch (error) {
    logger.warn('kiosk.host.locale_unavailable', { error });
    return {};
  }
}

/** What the router needs to know of an Electron IPC sender. */
export function senderInfoOf(event: IpcInvokeEventLike): SenderInfo {
  const frame = event.senderFrame;
  if (frame === null) return { isMainFrame: false };
  return { frameUrl: frame.url, isMainFrame: frame.parent === null };
}

/**
 * The embeddable entry point: call it from your Electron main process, after
 * `registerKioskScheme(electron)` (before the app is ready) — or before `ready` and it does that
 * itself. It opens the kiosk window on `app://kiosk`, binds the IPC router to the services, and
 * returns the running kiosk.
 */
export async function createKioskIntegration(
  options: KioskIntegrationOptions,
): Promise<KioskIntegration> {
  const { electron } = options;
  const logger = options.logger ?? silentLogger;

  if ((options.singleInstance ?? true) && !electron.app.requestSingleInstanceLock()) {
    logger.info('kiosk.host.second_instance', {});
    electron.app.quit();
    return { status: 'second-instance' };
  }
  const baseUrlOption = chooseBaseUrl(options, logger);
  if (baseUrlOption === undefined && options.startSandbox === undefined) {
    throw new RangeError('no baseUrl and no embedded sandbox: give one of them');
  }

  // Every WebContents, including ones created later (print windows), is hardened at birth.
  electron.app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));
  await electron.app.whenReady();
  denyAllPermissions(electron);

  let sandbox: EmbeddedSandbox | undefined;
  let credentials: KioskCredentials;
  let baseUrl: string;
  if (baseUrlOption === undefined) {
    sandbox = await options.startSandbox!();
    const account = sandbox.accounts[0];
    if (account === undefined) throw new Error('the embedded sandbox has no account');
    credentials = fixedCredentials(account, 'sandbox');
    baseUrl = sandbox.baseUrl;
  } else {
    credentials = credentialsOf(options.vault, options.dataDir, electron);
    baseUrl = baseUrlOption;
  }

  // The print host needs the window, which is created after the services.
  const windowRef: { current?: BrowserWindowLike } = {};
  const services = await createKioskServices({
    dataDir: options.dataDir,
    api: {
      baseUrl,
      demo: sandbox !== undefined,
      sandboxAvailable: options.startSandbox !== undefined,
    },
    credentials,
    host: 'electron',
    ...systemLocaleOf(electron, logger),
    printing: {
      ...options.printers,
      electronHost: electronPrintHost(electron, () => windowRef.current),
    },
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.shopId === undefined ? {} : { shopId: options.shopId }),
    ...(options.adminPin === undefined ? {} : { adminPin: options.adminPin }),
    ...(options.locale === undefined ? {} : { locale: options.locale }),
    ...(options.versions === undefined ? {} : { versions: options.versions }),
    logger,
  });

  const router = createIpcRouter({
    handlers: services.handlers,
    allowedOrigins: [APP_ORIGIN],
    adminGuard: services.adminGuard,
    logger,
  });

  electron.protocol.handle(APP_SCHEME, appProtocolHandler(resolve(options.rendererDir)));

  const kioskWindow = new electron.BrowserWindow(
    kioskWindowOptions(resolve(options.preloadPath), options.window),
  );
  windowRef.current = kioskWindow;
  const contentsId = kioskWindow.webContents.id;

  for (const channel of router.channels) {
    electron.ipcMain.handle(channel, (event, payload) => {
      // Only the kiosk window talks to main; the router then checks the frame and the origin.
      if (event.sender.id !== contentsId) {
        return router.handle(channel, payload, { isMainFrame: false });
      }
      return router.handle(channel, payload, senderInfoOf(event));
    });
  }
  const unpublish = publishEvents(
    services.events,
    (channel, payload) => {
      if (!kioskWindow.isDestroyed() && !kioskWindow.webContents.isDestroyed()) {
        kioskWindow.webContents.send(channel, payload);
      }
    },
    logger,
  );

  electron.app.on('second-instance', () => {
    if (kioskWindow.isDestroyed()) return;
    if (kioskWindow.isMinimized()) kioskWindow.restore();
    kioskWindow.focus();
  });
  kioskWindow.once('ready-to-show', () => kioskWindow.show());

  services.start();
  await kioskWindow.loadURL(APP_ENTRY_URL);

  let closing: Promise<void> | undefined;
  return {
    status: 'running',
    window: kioskWindow,
    services,
    router,
    demo: sandbox !== undefined,
    close() {
      closing ??= (async () => {
        unpublish();
        for (const channel of router.channels) electron.ipcMain.removeHandler(channel);
        electron.protocol.unhandle(APP_SCHEME);
        if (!kioskWindow.isDestroyed()) kioskWindow.destroy();
        await services.close();
        await sandbox?.close();
      })();
      return closing;
    },
  };
}
