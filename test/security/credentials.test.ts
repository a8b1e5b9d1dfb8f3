import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../electron/api/client.ts';
import { CredentialsRejected } from '../../electron/api/errors.ts';
import { createVaultChain } from '../../electron/credentials/chain.ts';
import { credentialsProvider } from '../../electron/credentials/provider.ts';
import { SETTINGS_FILE, savedApiBaseUrl } from '../../electron/kiosk/settings-store.ts';
import { ipcErrorCodes } from '../../shared/ipc/errors.ts';
import { type TestSandbox, startTestSandbox } from '../electron/api/support/sandbox.ts';
import { inProcess } from '../electron/cli/support.ts';
import { type BrowserMainRun, startBrowserMain } from '../electron/host/browser-main-process.ts';

/**
 * Credentials are bound to the API they belong to. The attack, as reported: a kiosk started
 * without KIOSK_API_BASE_URL but with a provisioned credentials file ran the demo, whose PIN is
 * the public 0000; setup then saved any http:// base URL, and the next start POSTed the fleet's
 * e-mail and password to it. Here the credentials' own API is the sandbox, over HTTP, and the
 * attacker's is a second listener on another port that records every request: whatever door
 * changes the base URL (setup with a PIN, the settings file, a kioskctl flag), nothing carrying
 * the credentials ever reaches it.
 */

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  body: string;
}

let sandbox: TestSandbox;
let attacker: Server;
let attackerUrl: string;
const seen: Seen[] = [];
let dir: string;
let running: BrowserMainRun | undefined;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  // An API look-alike that would gladly take a password: it answers POST /auth with a token.
  attacker = createServer((request, response) => {
    const entry: Seen = {
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      body: '',
    };
    // Recorded on arrival of the headers: a request is seen even if the kiosk dies mid-body.
    seen.push(entry);
    request.setEncoding('utf8').on('data', (chunk: string) => (entry.body += chunk));
    request.on('end', () => {
      response.setHeader('content-type', 'application/json');
      response.end(
        entry.url === '/auth'
          ? JSON.stringify({ token: 'eyJhbGciOiJub25lIn0.eyJleHAiOjQxMDI0NDQ4MDB9.' })
          : JSON.stringify({ status: 'ok' }),
      );
    });
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await running?.stop();
  await new Promise((resolve) => attacker?.close(resolve));
  await sandbox?.close();
});

beforeEach(async () => {
  seen.length = 0;
  dir = await mkdtemp(join(tmpdir(), 'kiosk-security-credentials-'));
});

afterEach(async () => {
  await running?.stop();
  running = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** What reached the attacker with the account in it: POST /auth, a bearer token, the e-mail or password. */
function withCredentials(): Seen[] {
  const { email, password } = sandbox.full;
  return seen.filter(
    (entry) =>
      entry.url.startsWith('/auth') ||
      entry.headers.authorization !== undefined ||
      entry.body.includes(password) ||
      entry.body.includes(email) ||
      entry.url.includes(encodeURIComponent(email)),
  );
}

/** The fleet's provisioned file, 0600, with the sandbox's account (and an origin when given). */
async function provision(origin?: string): Promise<string> {
  const path = join(dir, 'provisioned.json');
  const { email, password } = sandbox.full;
  await writeFile(
    path,
    JSON.stringify(origin === undefined ? { email, password } : { email, password, origin }),
  );
  await chmod(path, 0o600);
  return path;
}

/** Starts `npm start`'s browser host on this test's data directory. */
async function start(env: Record<string, string>): Promise<BrowserMainRun> {
  await running?.stop();
  running = await startBrowserMain({ KIOSK_DATA_DIR: join(dir, 'data'), ...env });
  return running;
}

describe('npm start: the demo never runs beside real credentials', { timeout: 60_000 }, () => {
  it('a provisioned file and no base URL: no demo, and PIN 0000 cannot redirect the credentials', async () => {
    const kiosk = (await start({ KIOSK_PROVISIONED_CREDENTIALS: await provision() })).kiosk;
    expect(running!.banner).not.toMatch(/demo on the embedded sandbox|PIN: 0000/);
    expect(await kiosk.getStatus({})).toMatchObject({
      ok: true,
      value: { demo: false, credentials: { problem: { code: 'API_BASE_URL_REQUIRED' } } },
    });
    // The reported attack, step two: the public demo PIN saves the attacker's base URL.
    expect(
      await kiosk.updateSettings({ adminPin: '0000', changes: { apiBaseUrl: attackerUrl } }),
    ).toMatchObject({ ok: false, error: { code: ipcErrorCodes.adminPinNotConfigured } });
    await running!.stop();
    expect(savedApiBaseUrl(join(dir, 'data'))).toBeUndefined();
    expect(withCredentials()).toEqual([]);
  });
});

describe(
  'after a base URL change, the credentials stay with their API',
  { timeout: 60_000 },
  () => {
    it('setup with the administrator PIN: asked again, and never sent to the new service', async () => {
      const env = {
        KIOSK_PROVISIONED_CREDENTIALS: await provision(sandbox.baseUrl),
        KIOSK_API_BASE_URL: sandbox.baseUrl,
        KIOSK_ADMIN_PIN: '482913',
      };
      let { kiosk } = await start(env);
      // Where they belong, they work: the sandbox accepts them.
      expect(await kiosk.testConnection({})).toMatchObject({ ok: true, value: { ok: true } });

      const moved = await kiosk.updateSettings({
        adminPin: '482913',
        changes: { apiBaseUrl: `${attackerUrl}/api` },
      });
      expect(moved).toMatchObject({
        ok: true,
        value: {
          restartRequired: true,
          credentials: {
            origin: sandbox.baseUrl,
            problem: { code: 'CREDENTIALS_ORIGIN_MISMATCH' },
          },
        },
      });

      // The next start follows setup's base URL: the attacker's service is the one in use.
      ({ kiosk } = await start(env));
      expect(running!.banner).toContain(`Commerce API at ${attackerUrl}`);
      expect(await kiosk.testConnection({})).toMatchObject({
        ok: true,
        value: { ok: false, error: { code: 'CREDENTIALS_ORIGIN_MISMATCH' } },
      });
      expect(await kiosk.getStatus({})).toMatchObject({
        ok: true,
        value: { credentials: { problem: { code: 'CREDENTIALS_ORIGIN_MISMATCH' } } },
      });
      // Lookups, the catalogue sync and the sender all need a token: none is asked of the attacker.
      await kiosk.searchCustomers({ email: 'helene.lefevre@example.com' });
      // It is the service in use (its health is probed), just never given the account.
      await kiosk.checkConnectivity({});
      await running!.stop();
      expect(seen.map((entry) => `${entry.method} ${entry.url}`)).toContain('GET /api/health');
      expect(withCredentials()).toEqual([]);
    });

    it("a settings file written behind the kiosk's back: the same", async () => {
      const dataDir = join(dir, 'data');
      await start({
        KIOSK_API_BASE_URL: sandbox.baseUrl,
        KIOSK_PROVISIONED_CREDENTIALS: await provision(),
      });
      await running!.stop();
      await writeFile(join(dataDir, SETTINGS_FILE), JSON.stringify({ apiBaseUrl: attackerUrl }));

      // No origin in the file: it belongs to KIOSK_API_BASE_URL, the deployment's.
      const { kiosk } = await start({
        KIOSK_API_BASE_URL: sandbox.baseUrl,
        KIOSK_PROVISIONED_CREDENTIALS: await provision(),
      });
      expect(await kiosk.testConnection({})).toMatchObject({
        ok: true,
        value: { ok: false, error: { code: 'CREDENTIALS_ORIGIN_MISMATCH' } },
      });
      await running!.stop();

      // Without KIOSK_API_BASE_URL it belongs nowhere: refused, never sent.
      const unbound = await start({ KIOSK_PROVISIONED_CREDENTIALS: await provision() });
      const test = await unbound.kiosk.testConnection({});
      expect(test).toMatchObject({ ok: true, value: { ok: false } });
      expect(JSON.stringify(test)).toMatch(/names no API origin/);
      await running!.stop();

      // A settings file naming plain http to another machine is not followed at all.
      await writeFile(
        join(dataDir, SETTINGS_FILE),
        JSON.stringify({ apiBaseUrl: 'http://attacker.example:8080' }),
      );
      await start({
        KIOSK_API_BASE_URL: sandbox.baseUrl,
        KIOSK_PROVISIONED_CREDENTIALS: await provision(),
      });
      expect(running!.banner).toContain(`Commerce API at ${sandbox.baseUrl}`);
      await running!.stop();
      expect(withCredentials()).toEqual([]);
    });

    it("the environment's credentials belong to KIOSK_API_BASE_URL only", async () => {
      const env = {
        KIOSK_API_BASE_URL: sandbox.baseUrl,
        KIOSK_API_EMAIL: sandbox.full.email,
        KIOSK_API_PASSWORD: sandbox.full.password,
      };
      await start(env);
      await running!.stop();
      await writeFile(
        join(dir, 'data', SETTINGS_FILE),
        JSON.stringify({ apiBaseUrl: attackerUrl }),
      );
      const { kiosk } = await start(env);
      expect(await kiosk.testConnection({})).toMatchObject({
        ok: true,
        value: { ok: false, error: { code: 'CREDENTIALS_ORIGIN_MISMATCH' } },
      });
      await running!.stop();

      // Without KIOSK_API_BASE_URL they belong nowhere: the saved base URL does not get them.
      const { KIOSK_API_BASE_URL: _, ...unbound } = env;
      const alone = await start(unbound);
      expect(running!.banner).toContain(`Commerce API at ${attackerUrl}`);
      const test = await alone.kiosk.testConnection({});
      expect(test).toMatchObject({ ok: true, value: { ok: false } });
      expect(JSON.stringify(test)).toMatch(/names no API origin/);
      await running!.stop();
      expect(withCredentials()).toEqual([]);
    });
  },
);

describe('the API client refuses, whatever chose its base URL', () => {
  it('credentials of one origin are never sent to another: nothing leaves', async () => {
    const { email, password } = sandbox.full;
    const client = createApiClient({
      baseUrl: attackerUrl,
      credentials: async () => ({ email, password, origin: sandbox.baseUrl }),
    });
    const refused = await client.authenticate().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CredentialsRejected);
    expect(refused).toMatchObject({ code: 'CREDENTIALS_ORIGIN_MISMATCH' });
    expect((refused as Error).message).not.toContain(password);
    client.close();

    // The vault's provider binds what it reads; the same client refuses it.
    const chain = createVaultChain({ vault: 'file', provisionedFile: await provision() });
    const vaultClient = createApiClient({
      baseUrl: attackerUrl,
      credentials: credentialsProvider(chain, { defaultOrigin: sandbox.baseUrl }),
    });
    expect(await vaultClient.authenticate().catch((error: unknown) => error)).toMatchObject({
      code: 'CREDENTIALS_ORIGIN_MISMATCH',
    });
    vaultClient.close();
    expect(seen).toEqual([]);

    // Bound to the sandbox, sent to the sandbox.
    const own = createApiClient({
      baseUrl: sandbox.baseUrl,
      credentials: credentialsProvider(chain, { defaultOrigin: sandbox.baseUrl }),
    });
    expect(await own.authenticate()).toMatchObject({ authenticated: true });
    own.close();
  });
});

describe('kioskctl: --base-url cannot take the credentials elsewhere', () => {
  const errorOf = (stderr: string) =>
    (JSON.parse(stderr) as { error: { code: string; message: string } }).error;

  it('environment, --credentials file, provisioned file: a config error, nothing sent', async () => {
    const { email, password } = sandbox.full;
    const deployed = {
      KIOSK_API_BASE_URL: sandbox.baseUrl,
      KIOSK_API_EMAIL: email,
      KIOSK_API_PASSWORD: password,
    };
    expect((await inProcess(['api', 'ping'], deployed)).code).toBe(0);

    const viaEnvironment = await inProcess(['api', 'ping', '--base-url', attackerUrl], deployed);
    expect(viaEnvironment.code).toBe(2);
    expect(errorOf(viaEnvironment.stderr).code).toBe('CREDENTIALS_ORIGIN_MISMATCH');

    const file = join(dir, 'credentials.json');
    await writeFile(file, JSON.stringify({ email, password, origin: sandbox.baseUrl }));
    const viaFile = await inProcess(
      [
        'catalog',
        'sync',
        '--credentials',
        file,
        '--base-url',
        attackerUrl,
        '--data-dir',
        join(dir, 'cli'),
      ],
      {},
    );
    expect(viaFile.code).toBe(2);
    expect(errorOf(viaFile.stderr).code).toBe('CREDENTIALS_ORIGIN_MISMATCH');

    const provisioned = await provision(sandbox.baseUrl);
    const status = await inProcess(
      [
        'credentials',
        'status',
        '--provisioned-credentials',
        provisioned,
        '--base-url',
        attackerUrl,
      ],
      {},
    );
    expect(status.code).toBe(2);
    expect(JSON.parse(status.stdout)).toMatchObject({
      stored: true,
      auth: { checked: true, error: { code: 'CREDENTIALS_ORIGIN_MISMATCH' } },
    });
    expect(`${status.stdout}${status.stderr}`).not.toContain(password);

    // Plain http to another machine is not a base URL at all.
    const clear = await inProcess(['api', 'ping', '--base-url', 'http://10.1.2.3:8080'], deployed);
    expect(clear.code).toBe(2);
    expect(errorOf(clear.stderr)).toMatchObject({
      code: 'CONFIG',
      message: expect.stringMatching(/https:\/\//),
    });

    expect(withCredentials()).toEqual([]);
    expect(seen).toEqual([]);
  });
});
