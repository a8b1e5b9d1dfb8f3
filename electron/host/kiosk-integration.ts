import { resolve } from 'node:path';
import type { PrintingConfig } from '../printing/index.ts';
import { createIpcRouter, type IpcRouter, publishEvents, type SenderInfo } from '../ipc/index.ts';
import {
  type ConfiguredCredentials,
  createVaultChain,
  findConfiguredCredentials,
  type VaultConfig,
} from '../credentials/index.ts';
import {
  createKioskServices,
  decideStart,
  deploymentBaseUrl,
  type EmbeddedSandbox,
  type KioskCredentials,
  type KioskServices,
  vaultCredentials,
} from '../kiosk/index.ts';
import type { OfflineLimits } from '../outbox/index.ts';
import { type Logger, silentLogger } from '../logging/index.ts';
import type { KioskSettings } from '../../shared/ipc/status.ts';
import { appProtocolHandler } from './app-protocol.ts';
import { kioskPreloadPath, kioskRendererDir } from './asset-paths.ts';
import { checkAssetVersions } from './asset-version.ts';
import type {
  BrowserWindowLike,
  ElectronModule,
  IpcInvokeEventLike,
  WebContentsLike,
} from './electron-module.ts';
import { electronPrintHost } from './electron-print-host.ts';
import {
  DEFAULT_KIOSK_PARTITION,
  DEFAULT_KIOSK_SCHEME,
  type KioskWindowOptions,
  checkKioskPartition,
  checkKioskScheme,
  denyAllPermissions,
  hardenWebContents,
  kioskEntryUrl,
  kioskOrigin,
  kioskWindowOptions,
} from './kiosk-window.ts';

export type { EmbeddedSandbox };

export interface KioskIntegrationOptions {
  /** The `electron` module, injected: the integrator's own import (or a test's fake). */
  readonly electron: ElectronModule;
  /** Where the database, settings and logs of this kiosk live (e.g. `app.getPath('userData')`). */
  readonly dataDir: string;
  /**
   * The Commerce API (https, or http to a loopback address); absent: the embedded sandbox with
   * demo data ('demo' badge in the UI), unless credentials are configured (then the kiosk starts
   * locked on setup, saying why). An administrator's choice saved in setup (in `dataDir`) takes
   * precedence at the next start. Vault credentials that name no origin belong to this one.
   */
  readonly baseUrl?: string;
  /**
   * The credentials with `baseUrl` (the sandbox brings its own demo account): a vault
   * configuration (which backends, forced or in order; the default chain when absent, with
   * Electron's safeStorage and `dataDir`), or ready-made credentials (an integrator's own, bound
   * to their API by their provider's `origin`).
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
  /**
   * A public PIN for the embedded demo only (the demo app's `0000`), when `adminPin` is absent:
   * never in force on a real API, nor on a kiosk locked on setup.
   */
  readonly demoAdminPin?: string;
  /** The default language; absent: the system's (`app.getLocale()`), French or English. */
  readonly locale?: KioskSettings['locale'];
  readonly window?: KioskWindowOptions;
  /**
   * The built renderer folder and the bundled preload; default: the ones this package ships
   * (`kioskRendererDir()`, `kioskPreloadPath()`). Either must be of this package's version.
   */
  readonly rendererDir?: string;
  readonly preloadPath?: string;
  /**
   * The kiosk's own session partition (default `persist:commerce-kiosk`): its window and print
   * windows live there, and its permission and protocol handlers are set there only.
   */
  readonly partition?: string;
  /**
   * The page's scheme (default `commerce-kiosk`, page at `commerce-kiosk://kiosk/index.html`):
   * lowercase, not one of the web's (http, https, file, data, blob, javascript, about...). The
   * host registers it as privileged before 'ready' (`kioskSchemePrivileges(scheme)` merged into
   * its own call, or `registerKioskScheme(electron, scheme)`).
   */
  readonly scheme?: string;
  /**
   * Take Electron's single-instance lock, quit when another instance holds it, and bring the
   * kiosk window forward when a second one starts (default false: the host's decision).
   */
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

/**
 * Ready-made credentials, or the vault chain a configuration describes (throws when invalid),
 * with where credentials are configured: ready-made ones always are.
 */
function credentialsOf(
  vault: VaultConfig | KioskCredentials | undefined,
  dataDir: string,
  electron: Pick<ElectronModule, 'safeStorage'>,
  deployedBaseUrl: string | undefined,
): { credentials: KioskCredentials; find: () => Promise<readonly ConfiguredCredentials[]> } {
  if (vault !== undefined && isKioskCredentials(vault)) {
    return {
      credentials: vault,
      find: async () =>
        (await vault.store.status()).backend === 'environment'
          ? [{ source: 'environment', location: 'KIOSK_API_EMAIL, KIOSK_API_PASSWORD' }]
          : [{ source: 'integrator', location: 'the credentials given to createKioskIntegration' }],
    };
  }
  const chain = createVaultChain(
    { dataDir, ...vault },
    electron.safeStorage === undefined ? {} : { safeStorage: electron.safeStorage },
  );
  return {
    // Credentials that name no API belong to the integrator's, never to one saved in setup.
    credentials: vaultCredentials(chain, {
      defaultOrigin: deployedBaseUrl === undefined ? undefined : new URL(deployedBaseUrl).origin,
    }),
    find: () => findConfiguredCredentials(chain, {}),
  };
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
 * The embeddable entry point: call it from your Electron main process, once the kiosk scheme is
 * registered as privileged (before the app is ready: `kioskSchemePrivileges(scheme)` in your own
 * `protocol.registerSchemesAsPrivileged` call, or `registerKioskScheme(electron, scheme)`). It
 * opens the kiosk window on `<scheme>://kiosk` in its own session partition, binds the IPC router
 * to the services, and returns the running kiosk. The host's other windows and sessions are left
 * alone.
 */
export async function createKioskIntegration(
  options: KioskIntegrationOptions,
): Promise<KioskIntegration> {
  const { electron } = options;
  const logger = options.logger ?? silentLogger;
  // Checked before anything changes, naming the option.
  const scheme = checkKioskScheme(options.scheme ?? DEFAULT_KIOSK_SCHEME, 'scheme');
  const partition = checkKioskPartition(options.partition ?? DEFAULT_KIOSK_PARTITION, 'partition');
  const singleInstance = options.singleInstance ?? false;
  const rendererDir = resolve(options.rendererDir ?? kioskRendererDir());
  const preloadPath = resolve(options.preloadPath ?? kioskPreloadPath());
  await checkAssetVersions({ rendererDir, preloadPath });

  if (singleInstance && !electron.app.requestSingleInstanceLock()) {
    logger.info('kiosk.host.second_instance', {});
    electron.app.quit();
    return { status: 'second-instance' };
  }
  const deployedBaseUrl = deploymentBaseUrl(options.baseUrl, 'baseUrl');
  const configured = credentialsOf(options.vault, options.dataDir, electron, deployedBaseUrl);

  await electron.app.whenReady();
  // The kiosk's own session: the host's default session, and its handlers, are not touched.
  const kioskSession = electron.session.fromPartition(partition);
  denyAllPermissions(kioskSession);

  // The WebContents of the kiosk's session, including ones created later (print windows), are
  // hardened at birth; the host's are not the kiosk's business.
  const hardenOwn = (_event: unknown, contents: WebContentsLike) => {
    if (contents.session === kioskSession) hardenWebContents(contents);
  };
  let kioskWindow: BrowserWindowLike | undefined;
  const focusKiosk = () => {
    if (kioskWindow === undefined || kioskWindow.isDestroyed()) return;
    if (kioskWindow.isMinimized()) kioskWindow.restore();
    kioskWindow.focus();
  };
  let sandbox: EmbeddedSandbox | undefined;
  let services: KioskServices | undefined;
  let unpublish: (() => void) | undefined;
  let protocolHandled = false;
  const boundChannels: string[] = [];
  // Undoes whatever of the start was done: by close(), or at once when the start fails.
  const undo = async () => {
    unpublish?.();
    for (const channel of boundChannels) electron.ipcMain.removeHandler(channel);
    electron.app.removeListener('web-contents-created', hardenOwn);
    if (singleInstance) electron.app.removeListener('second-instance', focusKiosk);
    if (protocolHandled) kioskSession.protocol.unhandle(scheme);
    if (kioskWindow !== undefined && !kioskWindow.isDestroyed()) kioskWindow.destroy();
    await services?.close();
    await sandbox?.close();
  };

  try {
    electron.app.on('web-contents-created', hardenOwn);

    const decision = await decideStart({
      settingsDir: options.dataDir,
      baseUrl: deployedBaseUrl,
      ...(options.startSandbox === undefined ? {} : { startSandbox: options.startSandbox }),
      findCredentials: configured.find,
      apiCredentials: () => configured.credentials,
      ...(options.adminPin === undefined ? {} : { adminPin: options.adminPin }),
      ...(options.demoAdminPin === undefined ? {} : { demoAdminPin: options.demoAdminPin }),
      logger,
    });
    sandbox = decision.sandbox;
    const { adminPin } = decision;

    // The print host needs the window, which is created after the services.
    const kioskServices = await createKioskServices({
      dataDir: options.dataDir,
      api: {
        baseUrl: decision.baseUrl,
        demo: decision.demo,
        sandboxAvailable: decision.sandboxAvailable,
      },
      credentials: decision.credentials,
      host: 'electron',
      ...systemLocaleOf(electron, logger),
      printing: {
        ...options.printers,
        electronHost: electronPrintHost(electron, () => kioskWindow, partition),
      },
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      ...(options.shopId === undefined ? {} : { shopId: options.shopId }),
      ...(adminPin === undefined ? {} : { adminPin }),
      ...(options.locale === undefined ? {} : { locale: options.locale }),
      ...(options.versions === undefined ? {} : { versions: options.versions }),
      ...(process.env['KIOSK_API_PROFILE']
        ? { profileFile: process.env['KIOSK_API_PROFILE'] }
        : {}),
      environment: process.env,
      logger,
    });
    services = kioskServices;

    const router = createIpcRouter({
      handlers: kioskServices.handlers,
      allowedOrigins: [kioskOrigin(scheme)],
      adminGuard: kioskServices.adminGuard,
      logger,
    });

    kioskSession.protocol.handle(scheme, appProtocolHandler(rendererDir, scheme));
    protocolHandled = true;

    const window = new electron.BrowserWindow(
      kioskWindowOptions(preloadPath, options.window, partition),
    );
    kioskWindow = window;
    const contentsId = window.webContents.id;

    for (const channel of router.channels) {
      electron.ipcMain.handle(channel, (event, payload) => {
        // Only the kiosk window talks to main; the router then checks the frame and the origin.
        if (event.sender.id !== contentsId) {
          return router.handle(channel, payload, { isMainFrame: false });
        }
        return router.handle(channel, payload, senderInfoOf(event));
      });
      boundChannels.push(channel);
    }
    unpublish = publishEvents(
      kioskServices.events,
      (channel, payload) => {
        if (!window.isDestroyed() && !window.webContents.isDestroyed()) {
          window.webContents.send(channel, payload);
        }
      },
      logger,
    );

    if (singleInstance) electron.app.on('second-instance', focusKiosk);
    window.once('ready-to-show', () => window.show());

    if (decision.startServices) kioskServices.start();
    await window.loadURL(kioskEntryUrl(scheme));

    let closing: Promise<void> | undefined;
    return {
      status: 'running',
      window,
      services: kioskServices,
      router,
      demo: sandbox !== undefined,
      close() {
        closing ??= undo();
        return closing;
      },
    };
  } catch (error) {
    await undo().catch((cleanupError: unknown) =>
      logger.warn('kiosk.host.start_cleanup_failed', { error: cleanupError }),
    );
    throw error;
  }
}
