/**
 * The module is a guest in the integrator's Electron app: its window, session, scheme and
 * listeners are its own, and the host's windows, default session and app events are left as the
 * host set them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ipcErrorCodes, ipcMessages } from '../../../shared/ipc/index.ts';
import { electronPrintHost } from '../../../electron/host/electron-print-host.ts';
import type { PermissionRequestHandler } from '../../../electron/host/electron-module.ts';
import {
  type KioskIntegration,
  type KioskIntegrationOptions,
  createKioskIntegration,
} from '../../../electron/host/kiosk-integration.ts';
import {
  DEFAULT_KIOSK_SCHEME,
  kioskEntryUrl,
  kioskOrigin,
  kioskSchemePrivileges,
  registerKioskScheme,
} from '../../../electron/host/kiosk-window.ts';
import { fixedCredentials } from '../../../electron/kiosk/credential-store.ts';
import { type FakeElectron, type FakeWindow, fakeElectron } from './fake-electron.ts';
import { type RendererFixture, makeRendererFixture } from './renderer-fixture.ts';

type Running = Extract<KioskIntegration, { status: 'running' }>;

const PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  codeCache: true,
  bypassCSP: false,
  allowServiceWorkers: false,
  corsEnabled: false,
  stream: false,
};

let renderer: RendererFixture;
const dirs: string[] = [];

beforeAll(async () => {
  renderer = await makeRendererFixture();
});
afterAll(async () => {
  await renderer?.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** A kiosk on a real (unreachable) API: no sandbox to start, nothing sent anywhere. */
async function start(
  electron: FakeElectron,
  options: Partial<KioskIntegrationOptions> = {},
): Promise<KioskIntegration> {
  const dataDir = await mkdtemp(join(tmpdir(), 'kiosk-guest-'));
  dirs.push(dataDir);
  return createKioskIntegration({
    electron,
    dataDir,
    baseUrl: 'http://127.0.0.1:9',
    vault: fixedCredentials(
      { email: 'kiosk@example.com', password: 'p', origin: 'http://127.0.0.1:9' },
      'environment',
    ),
    rendererDir: renderer.rendererDir,
    preloadPath: renderer.preloadPath,
    printers: { backend: 'cups', cupsServer: '127.0.0.1:9' },
    ...options,
  });
}

function running(result: KioskIntegration): Running {
  if (result.status !== 'running') throw new Error('the kiosk did not start');
  return result;
}

/** Whether a `will-attach-webview` was prevented. */
function webviewPrevented(window: FakeWindow): boolean {
  let prevented = false;
  window.webContents.emit('will-attach-webview', { preventDefault: () => (prevented = true) });
  return prevented;
}

describe('embedded in a host app with windows of its own', () => {
  let electron: FakeElectron;
  let kiosk: Running;
  let kioskWindow: FakeWindow;
  let hostBefore: FakeWindow;
  let hostAfter: FakeWindow;
  const hostRequestHandler: PermissionRequestHandler = (_contents, _permission, callback) =>
    callback(true);
  const hostCheckHandler = () => true;
  const hostProtocolHandler = () => new Response('the host page');
  const hostOpenHandler = () => ({ action: 'deny' as const });
  const hostContentsCreated = () => undefined;

  beforeAll(async () => {
    electron = fakeElectron();
    // The host's one privileged-schemes call, the kiosk's merged in.
    electron.protocol.registerSchemesAsPrivileged([
      { scheme: 'host-app', privileges: { standard: true, secure: true } },
      kioskSchemePrivileges(),
    ]);
    electron.app.on('web-contents-created', hostContentsCreated);
    electron.session.defaultSession.setPermissionRequestHandler(hostRequestHandler);
    electron.session.defaultSession.setPermissionCheckHandler(hostCheckHandler);
    electron.protocol.handle('host-app', hostProtocolHandler);
    hostBefore = new electron.BrowserWindow({ width: 800 }) as FakeWindow;

    kiosk = running(await start(electron));
    kioskWindow = kiosk.window as FakeWindow;

    hostAfter = new electron.BrowserWindow({ width: 800 }) as FakeWindow;
  }, 60_000);

  afterAll(async () => {
    await kiosk?.close();
  });

  it("leaves the host's windows, created before and after it, free to navigate", () => {
    for (const host of [hostBefore, hostAfter]) {
      expect(host.webContents.session).toBe(electron.session.defaultSession);
      expect(host.webContents.navigate('will-navigate', 'https://host.example/next')).toBe(false);
      expect(host.webContents.navigate('will-redirect', 'https://host.example/sso')).toBe(false);
      expect(webviewPrevented(host)).toBe(false);
      expect(host.webContents.windowOpenHandler).toBeUndefined();
    }
  });

  it('does not replace a window-open handler the host set on its own window', () => {
    const mine = new electron.BrowserWindow({}) as FakeWindow;
    mine.webContents.setWindowOpenHandler(hostOpenHandler);
    // Whatever web-contents-created listeners run later, the module's touches only its own.
    electron.appEvents.emit('web-contents-created', {}, mine.webContents);
    expect(mine.webContents.windowOpenHandler).toBe(hostOpenHandler);
    expect(mine.webContents.navigate('will-navigate', 'https://host.example/')).toBe(false);
  });

  it("leaves the default session's permission and protocol handlers as the host set them", () => {
    const defaultSession = electron.session.defaultSession;
    expect(defaultSession.permissionRequestHandler).toBe(hostRequestHandler);
    expect(defaultSession.permissionCheckHandler).toBe(hostCheckHandler);
    expect([...defaultSession.protocolHandlers.keys()]).toEqual(['host-app']);
    expect(defaultSession.protocolHandlers.get('host-app')).toBe(hostProtocolHandler);
  });

  it('puts the kiosk window on its own partition, hardened', () => {
    const kioskSession = electron.session.fromPartition('persist:commerce-kiosk');
    expect(kioskWindow.options.webPreferences?.partition).toBe('persist:commerce-kiosk');
    expect(kioskWindow.webContents.session).toBe(kioskSession);
    expect(kioskSession).not.toBe(electron.session.defaultSession);
    expect(kioskWindow.loadedUrl).toBe('commerce-kiosk://kiosk/index.html');
    const contents = kioskWindow.webContents;
    expect(contents.navigate('will-navigate', 'https://evil.example/')).toBe(true);
    expect(contents.navigate('will-redirect', 'https://evil.example/')).toBe(true);
    expect(webviewPrevented(kioskWindow)).toBe(true);
    expect(contents.windowOpenHandler?.({ url: 'https://evil.example/' })).toEqual({
      action: 'deny',
    });
  });

  it("refuses every permission on the kiosk's session", () => {
    const kioskSession = kioskWindow.webContents.session;
    const answers: boolean[] = [];
    for (const permission of ['media', 'geolocation', 'notifications', 'hid']) {
      kioskSession.permissionRequestHandler?.({}, permission, (granted) => answers.push(granted));
      answers.push(kioskSession.permissionCheckHandler?.({}, permission) ?? true);
    }
    expect(answers).toEqual(Array.from({ length: 8 }, () => false));
  });

  it("serves its scheme on its partition's session, not the default one", async () => {
    const kioskSession = kioskWindow.webContents.session;
    expect([...kioskSession.protocolHandlers.keys()]).toEqual(['commerce-kiosk']);
    const page = await kioskSession.protocolHandlers.get('commerce-kiosk')!(
      new Request('commerce-kiosk://kiosk/index.html'),
    );
    expect(page.status).toBe(200);
    expect(electron.session.defaultSession.protocolHandlers.has('commerce-kiosk')).toBe(false);
  });

  it('opens its hidden print windows on its partition, hardened too', async () => {
    // The fake window does not read it: only the window's session matters here.
    const pdf = join(tmpdir(), 'spooled.pdf');
    const document = await electronPrintHost(electron, () => kioskWindow).openHiddenDocument(pdf);
    try {
      const hidden = electron.windows.at(-1)!;
      expect(hidden).not.toBe(kioskWindow);
      expect(hidden.options.webPreferences?.partition).toBe('persist:commerce-kiosk');
      expect(hidden.webContents.session).toBe(kioskWindow.webContents.session);
      expect(hidden.webContents.navigate('will-navigate', 'https://evil.example/')).toBe(true);
    } finally {
      document.close();
    }
  });

  it('never asks for the single-instance lock nor listens for a second instance', () => {
    expect(electron.singleInstanceRequests).toBe(0);
    expect(electron.appEvents.listenerCount('second-instance')).toBe(0);
    expect(electron.quitCalled).toBe(false);
  });

  it("close() removes the module's app listeners and protocol handler, and only those", async () => {
    expect(electron.appEvents.listenerCount('web-contents-created')).toBe(2);
    const kioskSession = kioskWindow.webContents.session;
    await kiosk.close();
    expect(electron.appEvents.listeners.get('web-contents-created')).toEqual([hostContentsCreated]);
    expect(electron.appEvents.listenerCount('second-instance')).toBe(0);
    expect(kioskSession.protocolHandlers.size).toBe(0);
    expect(electron.ipcHandlers.size).toBe(0);
    expect(kioskWindow.destroyed).toBe(true);
    // The host's own, untouched.
    expect(hostBefore.destroyed || hostAfter.destroyed).toBe(false);
    expect(electron.session.defaultSession.protocolHandlers.get('host-app')).toBe(
      hostProtocolHandler,
    );
    expect(electron.session.defaultSession.permissionRequestHandler).toBe(hostRequestHandler);
    // A WebContents of the kiosk's partition born after close() is no longer the module's.
    const later = new electron.BrowserWindow({
      webPreferences: { partition: 'persist:commerce-kiosk' },
    }) as FakeWindow;
    expect(later.webContents.navigate('will-navigate', 'https://example.com/')).toBe(false);
  });
});

describe('single instance, when the host asks for it', () => {
  it('takes the lock, brings the kiosk forward on a second instance, and lets go on close', async () => {
    const electron = fakeElectron();
    const kiosk = running(await start(electron, { singleInstance: true }));
    expect(electron.singleInstanceRequests).toBe(1);
    expect(electron.appEvents.listenerCount('second-instance')).toBe(1);
    let focused = 0;
    (kiosk.window as FakeWindow).focus = () => void (focused += 1);
    electron.appEvents.emit('second-instance');
    expect(focused).toBe(1);
    await kiosk.close();
    expect(electron.appEvents.listenerCount('second-instance')).toBe(0);
    expect(electron.appEvents.listenerCount('web-contents-created')).toBe(0);
  });

  it('a second instance quits, with nothing opened or listened to', async () => {
    const electron = fakeElectron();
    electron.singleInstanceLock = false;
    const result = await start(electron, { singleInstance: true });
    expect(result).toEqual({ status: 'second-instance' });
    expect(electron.quitCalled).toBe(true);
    expect(electron.windows).toHaveLength(0);
    expect(electron.appEvents.listeners.size).toBe(0);
  });
});

describe('a scheme and a partition of the integrator’s choice', () => {
  it('exports the privileges descriptor for the host to merge', () => {
    expect(kioskSchemePrivileges('acme-pos')).toEqual({
      scheme: 'acme-pos',
      privileges: PRIVILEGES,
    });
    expect(kioskSchemePrivileges()).toEqual({ scheme: 'commerce-kiosk', privileges: PRIVILEGES });
    expect(DEFAULT_KIOSK_SCHEME).toBe('commerce-kiosk');
    expect(kioskOrigin('acme-pos')).toBe('acme-pos://kiosk');
    expect(kioskEntryUrl()).toBe('commerce-kiosk://kiosk/index.html');
    const electron = fakeElectron();
    registerKioskScheme(electron, 'acme-pos');
    expect(electron.privileged).toEqual([{ scheme: 'acme-pos', privileges: PRIVILEGES }]);
  });

  it('uses the scheme for the entry URL, the router origin and the protocol handler', async () => {
    const electron = fakeElectron();
    const kiosk = running(
      await start(electron, { scheme: 'acme-pos', partition: 'persist:acme-kiosk' }),
    );
    try {
      const window = kiosk.window as FakeWindow;
      expect(window.loadedUrl).toBe('acme-pos://kiosk/index.html');
      expect(window.options.webPreferences?.partition).toBe('persist:acme-kiosk');
      const session = electron.session.fromPartition('persist:acme-kiosk');
      expect(window.webContents.session).toBe(session);
      expect([...session.protocolHandlers.keys()]).toEqual(['acme-pos']);
      expect(electron.partitions.has('persist:commerce-kiosk')).toBe(false);
      const page = await session.protocolHandlers.get('acme-pos')!(
        new Request('acme-pos://kiosk/index.html'),
      );
      expect(page.status).toBe(200);

      const invoke = (frameUrl: string) =>
        electron.ipcHandlers.get(ipcMessages.getStatus.channel)!(
          { sender: { id: window.webContents.id }, senderFrame: { url: frameUrl, parent: null } },
          {},
        );
      expect(await invoke('acme-pos://kiosk/index.html')).toMatchObject({ ok: true });
      expect(await invoke('commerce-kiosk://kiosk/index.html')).toMatchObject({
        ok: false,
        error: { code: ipcErrorCodes.forbiddenSender },
      });
    } finally {
      await kiosk.close();
    }
    expect(electron.session.fromPartition('persist:acme-kiosk').protocolHandlers.size).toBe(0);
  });

  it.each([
    ['http', /scheme/],
    ['https', /scheme/],
    ['file', /scheme/],
    ['data', /scheme/],
    ['blob', /scheme/],
    ['javascript', /scheme/],
    ['about', /scheme/],
    ['Acme', /scheme/],
    ['acme pos', /scheme/],
    ['1acme', /scheme/],
    ['', /scheme/],
  ])('refuses the scheme %j before changing anything', async (scheme, message) => {
    const electron = fakeElectron();
    await expect(start(electron, { scheme })).rejects.toThrow(message);
    expect(() => kioskSchemePrivileges(scheme)).toThrow(message);
    expect(electron.windows).toHaveLength(0);
    expect(electron.partitions.size).toBe(0);
    expect(electron.appEvents.listeners.size).toBe(0);
  });

  it('refuses the default session as its partition', async () => {
    const electron = fakeElectron();
    await expect(start(electron, { partition: '' })).rejects.toThrow(/partition/);
    expect(electron.session.defaultSession.permissionRequestHandler).toBeUndefined();
    expect(electron.appEvents.listeners.size).toBe(0);
  });
});

describe('a start that fails', () => {
  it('leaves nothing of the module behind, and the host’s own handler in place', async () => {
    const electron = fakeElectron();
    const hostHandler = () => 'the host’s';
    // The host already answers one of the kiosk's channels: binding it fails.
    electron.ipcMain.handle(ipcMessages.getStatus.channel, hostHandler);
    await expect(start(electron)).rejects.toThrow(/second handler/);
    expect(electron.appEvents.listeners.size).toBe(0);
    expect(electron.session.fromPartition('persist:commerce-kiosk').protocolHandlers.size).toBe(0);
    expect(electron.windows.every((window) => window.destroyed)).toBe(true);
    expect([...electron.ipcHandlers.keys()]).toEqual([ipcMessages.getStatus.channel]);
    expect(electron.ipcHandlers.get(ipcMessages.getStatus.channel)).toBe(hostHandler);
  });
});
