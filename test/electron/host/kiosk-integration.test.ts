import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ipcErrorCodes, ipcEvents, ipcMessages, messageNames } from '../../../shared/ipc/index.ts';
import {
  type KioskIntegration,
  createKioskIntegration,
  senderInfoOf,
} from '../../../electron/host/kiosk-integration.ts';
import { registerKioskScheme } from '../../../electron/host/kiosk-window.ts';
import { CONTENT_SECURITY_POLICY } from '../../../electron/host/security-policy.ts';
import { fixedCredentials } from '../../../electron/kiosk/credential-store.ts';
import { SETTINGS_FILE } from '../../../electron/kiosk/settings-store.ts';
import { startSandbox } from '../../../sandbox/index.ts';
import { type FakeElectron, type FakeWindow, fakeElectron } from './fake-electron.ts';
import { type RendererFixture, SECRET_TEXT, makeRendererFixture } from './renderer-fixture.ts';

describe('createKioskIntegration with an injected electron module', () => {
  let electron: FakeElectron;
  let renderer: RendererFixture;
  let dataDir: string;
  let kiosk: Extract<KioskIntegration, { status: 'running' }>;
  let window: FakeWindow;

  beforeAll(async () => {
    electron = fakeElectron();
    renderer = await makeRendererFixture();
    dataDir = await mkdtemp(join(tmpdir(), 'kiosk-host-'));
    registerKioskScheme(electron);
    const result = await createKioskIntegration({
      electron,
      dataDir,
      startSandbox: () => startSandbox({ port: 0, products: 20 }),
      rendererDir: renderer.rendererDir,
      preloadPath: renderer.preloadPath,
      adminPin: '2468',
      window: { kiosk: true },
      printers: { backend: 'cups', cupsServer: '127.0.0.1:9' },
    });
    if (result.status !== 'running') throw new Error('the kiosk did not start');
    kiosk = result;
    window = electron.windows[0]!;
  }, 60_000);

  afterAll(async () => {
    await kiosk?.close();
    await renderer?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('registers commerce-kiosk:// as a privileged standard, secure scheme without CSP bypass', () => {
    expect(electron.privileged).toEqual([
      {
        scheme: 'commerce-kiosk',
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
  });

  it('opens one window with every security preference spelled out', () => {
    expect(electron.windows).toHaveLength(1);
    expect(window.options).toMatchObject({ kiosk: true, fullscreen: true, show: false });
    expect(window.options.webPreferences).toEqual({
      preload: renderer.preloadPath,
      partition: 'persist:commerce-kiosk',
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
      devTools: false,
    });
    expect(window.loadedUrl).toBe('commerce-kiosk://kiosk/index.html');
    expect(window.shown).toBe(true);
    expect(kiosk.demo).toBe(true);
  });

  it('denies navigation, redirects, webviews and new windows', () => {
    const contents = window.webContents;
    expect(contents.navigate('will-navigate', 'https://evil.example/')).toBe(true);
    expect(contents.navigate('will-navigate', 'commerce-kiosk://kiosk/index.html')).toBe(true);
    expect(contents.navigate('will-redirect', 'https://evil.example/')).toBe(true);
    expect(contents.windowOpenHandler?.({ url: 'https://evil.example/' })).toEqual({
      action: 'deny',
    });
    let prevented = false;
    contents.emit('will-attach-webview', { preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
  });

  it('denies every permission request and check of its session', () => {
    const session = window.webContents.session;
    expect(session).toBe(electron.session.fromPartition('persist:commerce-kiosk'));
    const answers: boolean[] = [];
    for (const permission of ['media', 'geolocation', 'notifications', 'hid', 'clipboard-read']) {
      session.permissionRequestHandler?.({}, permission, (granted) => answers.push(granted));
      answers.push(session.permissionCheckHandler?.({}, permission) ?? true);
    }
    expect(answers).toHaveLength(10);
    expect(answers.every((granted) => granted === false)).toBe(true);
  });

  it('serves the renderer on commerce-kiosk://kiosk with the CSP, and nothing outside it', async () => {
    const handler = window.webContents.session.protocolHandlers.get('commerce-kiosk')!;
    const page = await handler(new Request('commerce-kiosk://kiosk/index.html'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    for (const url of [
      'commerce-kiosk://kiosk/../../etc/passwd',
      'commerce-kiosk://kiosk/%2e%2e/%2e%2e/etc/passwd',
      'commerce-kiosk://kiosk/..%2f..%2fsecret.txt',
      'commerce-kiosk://kiosk/assets/leak.txt',
      'commerce-kiosk://kiosk//etc/passwd',
    ]) {
      const response = await handler(new Request(url));
      expect(response.status, url).toBeGreaterThanOrEqual(400);
      expect(await response.text()).not.toContain(SECRET_TEXT);
    }
  });

  it('binds one IPC handler per message', () => {
    expect([...electron.ipcHandlers.keys()].sort()).toEqual(
      messageNames.map((name) => ipcMessages[name].channel).sort(),
    );
  });

  const invoke = (channel: string, payload: unknown, event: Parameters<typeof senderInfoOf>[0]) =>
    electron.ipcHandlers.get(channel)!(event, payload) as Promise<unknown>;

  it('answers the kiosk page (main frame on commerce-kiosk://kiosk)', async () => {
    const result = await invoke(
      ipcMessages.getStatus.channel,
      {},
      {
        sender: { id: window.webContents.id },
        senderFrame: { url: 'commerce-kiosk://kiosk/index.html', parent: null },
      },
    );
    expect(result).toMatchObject({ ok: true, value: { demo: true, host: 'electron' } });
  });

  it('starts in the system language Electron reports (app.getLocale)', async () => {
    const result = await invoke(
      ipcMessages.getSettings.channel,
      {},
      {
        sender: { id: window.webContents.id },
        senderFrame: { url: 'commerce-kiosk://kiosk/index.html', parent: null },
      },
    );
    // The fake system is French, whatever this process's own locale.
    expect(result).toMatchObject({ ok: true, value: { settings: { locale: 'fr' } } });
  });

  it.each([
    ['no sender frame', { senderFrame: null }],
    [
      'a sub-frame',
      {
        senderFrame: {
          url: 'commerce-kiosk://kiosk/index.html',
          parent: { url: 'commerce-kiosk://kiosk/', parent: null },
        },
      },
    ],
    ['another origin', { senderFrame: { url: 'https://evil.example/', parent: null } }],
    ['a file: page', { senderFrame: { url: 'file:///etc/passwd', parent: null } }],
  ])('refuses %s', async (_label, frame) => {
    const result = await invoke(ipcMessages.getStatus.channel, {}, {
      sender: { id: window.webContents.id },
      ...frame,
    } as Parameters<typeof senderInfoOf>[0]);
    expect(result).toMatchObject({ ok: false, error: { code: ipcErrorCodes.forbiddenSender } });
  });

  it('refuses another WebContents even on the right origin (a hidden print window)', async () => {
    const result = await invoke(
      ipcMessages.getStatus.channel,
      {},
      {
        sender: { id: window.webContents.id + 1_000 },
        senderFrame: { url: 'commerce-kiosk://kiosk/index.html', parent: null },
      },
    );
    expect(result).toMatchObject({ ok: false, error: { code: ipcErrorCodes.forbiddenSender } });
  });

  it('pushes service events to the window, checked by their schema', async () => {
    const before = window.webContents.sent.length;
    const result = await invoke(
      ipcMessages.debitGiftCard.channel,
      {
        requestId: crypto.randomUUID(),
        giftCardId: 'gift_card_ddf0db2b-c468-4d07-9853-e8ef57c20a81',
        amount: 2,
        policy: 'prefer_online',
      },
      {
        sender: { id: window.webContents.id },
        senderFrame: { url: 'commerce-kiosk://kiosk/', parent: null },
      },
    );
    expect(result).toMatchObject({ ok: true });
    const sent = window.webContents.sent.slice(before);
    const accepted = sent.find(
      (entry) =>
        entry.channel === ipcEvents.outboxChanged.channel &&
        (entry.payload as { type: string }).type === 'accepted',
    );
    expect(accepted).toBeDefined();
    expect(JSON.stringify(accepted)).not.toContain('idempotencyKey');
  });

  it('with singleInstance, a second instance quits without opening anything', async () => {
    const second = fakeElectron();
    second.singleInstanceLock = false;
    const result = await createKioskIntegration({
      electron: second,
      dataDir,
      singleInstance: true,
      startSandbox: () => Promise.reject(new Error('must not start')),
      rendererDir: renderer.rendererDir,
      preloadPath: renderer.preloadPath,
    });
    expect(result).toEqual({ status: 'second-instance' });
    expect(second.singleInstanceRequests).toBe(1);
    expect(second.quitCalled).toBe(true);
    expect(second.windows).toHaveLength(0);
    expect(second.ipcHandlers.size).toBe(0);
    expect(second.partitions.size).toBe(0);
    expect(second.appEvents.listeners.size).toBe(0);
  });

  it('by default, never asks for the single-instance lock nor listens for a second one', () => {
    expect(electron.singleInstanceRequests).toBe(0);
    expect(electron.appEvents.listenerCount('second-instance')).toBe(0);
    expect(electron.quitCalled).toBe(false);
  });

  it('on a real base URL, stores write-only credentials in the vault and uses them', async () => {
    const api = await startSandbox({ port: 0, products: 10 });
    const account = api.accounts.find((entry) => entry.email === 'kiosk-all@sandbox.test')!;
    const own = fakeElectron();
    // A stand-in for Electron's safeStorage: a reversible transform, with a real key store name.
    const sealed = (text: string) => Buffer.from(`sealed:${Buffer.from(text).toString('hex')}`);
    const stored: Buffer[] = [];
    const electronWithVault = {
      ...own,
      safeStorage: {
        isEncryptionAvailable: () => true,
        getSelectedStorageBackend: () => 'gnome_libsecret',
        encryptString: (text: string) => {
          stored.push(sealed(text));
          return sealed(text);
        },
        decryptString: (data: Buffer) =>
          Buffer.from(data.toString().replace(/^sealed:/, ''), 'hex').toString(),
      },
    };
    const ownDir = await mkdtemp(join(tmpdir(), 'kiosk-vault-'));
    const real = await createKioskIntegration({
      electron: electronWithVault,
      dataDir: ownDir,
      baseUrl: api.baseUrl,
      vault: { vault: 'safe-storage' },
      adminPin: '1357',
      rendererDir: renderer.rendererDir,
      preloadPath: renderer.preloadPath,
      printers: { backend: 'cups', cupsServer: '127.0.0.1:9' },
    });
    try {
      if (real.status !== 'running') throw new Error('not running');
      const page = {
        sender: { id: own.windows[0]!.webContents.id },
        senderFrame: { url: 'commerce-kiosk://kiosk/', parent: null },
      };
      const send = (channel: string, payload: unknown) =>
        own.ipcHandlers.get(channel)!(page, payload) as Promise<{
          ok: boolean;
          value?: unknown;
          error?: { code: string };
        }>;

      expect(await send(ipcMessages.getStatus.channel, {})).toMatchObject({
        ok: true,
        value: {
          demo: false,
          credentials: { configured: false, backend: 'safe-storage', writable: true },
        },
      });
      expect(await send(ipcMessages.testConnection.channel, {})).toMatchObject({
        ok: true,
        value: { ok: false, error: { code: expect.stringMatching(/CREDENTIALS/) } },
      });
      const written = await send(ipcMessages.setCredentials.channel, {
        adminPin: '1357',
        email: account.email,
        password: account.password,
      });
      expect(written).toMatchObject({
        ok: true,
        value: { credentials: { configured: true, backend: 'safe-storage', problem: null } },
      });
      expect(JSON.stringify(written)).not.toContain(account.password);
      expect(stored.length).toBeGreaterThan(0);
      expect(await send(ipcMessages.testConnection.channel, {})).toMatchObject({
        ok: true,
        value: { ok: true },
      });
      expect(
        await send(ipcMessages.getCustomer.channel, {
          customerId: 'customer_d7fec614-a393-43e6-9a5e-219599816ba6',
        }),
      ).toMatchObject({ ok: true });
    } finally {
      if (real.status === 'running') await real.close();
      await api.close();
      await rm(ownDir, { recursive: true, force: true });
    }
  });

  it('at the next start, the base URL saved in setup wins over the embedded sandbox', async () => {
    const own = fakeElectron();
    const ownDir = await mkdtemp(join(tmpdir(), 'kiosk-saved-url-'));
    await writeFile(
      join(ownDir, SETTINGS_FILE),
      JSON.stringify({ apiBaseUrl: 'http://127.0.0.1:9/commerce' }),
    );
    const started = await createKioskIntegration({
      electron: own,
      dataDir: ownDir,
      vault: fixedCredentials({ email: 'kiosk@example.com', password: 'p' }, 'environment'),
      startSandbox: () => Promise.reject(new Error('must not start')),
      rendererDir: renderer.rendererDir,
      preloadPath: renderer.preloadPath,
      printers: { backend: 'cups', cupsServer: '127.0.0.1:9' },
    });
    try {
      if (started.status !== 'running') throw new Error('not running');
      expect(started.demo).toBe(false);
      const result = await own.ipcHandlers.get(ipcMessages.getSettings.channel)!(
        {
          sender: { id: own.windows[0]!.webContents.id },
          senderFrame: { url: 'commerce-kiosk://kiosk/', parent: null },
        },
        {},
      );
      expect(result).toMatchObject({
        ok: true,
        value: {
          settings: { apiBaseUrl: 'http://127.0.0.1:9/commerce' },
          sandboxAvailable: true,
          restartRequired: false,
        },
      });
      expect(started.services.apiOrigin).toBe('http://127.0.0.1:9');
    } finally {
      if (started.status === 'running') await started.close();
      await rm(ownDir, { recursive: true, force: true });
    }
  });
});
