/**
 * `npm start` without Electron: the loopback browser host on the embedded sandbox (or on
 * KIOSK_API_BASE_URL with KIOSK_API_EMAIL/KIOSK_API_PASSWORD, or on the base URL saved in setup,
 * which wins), printing the URL to open. Where credentials are configured but no base URL is,
 * no demo: the kiosk starts locked on setup, saying why.
 *
 * Environment: KIOSK_API_BASE_URL; credentials from KIOSK_API_EMAIL + KIOSK_API_PASSWORD when set,
 * else the vault chain as kioskctl reads it (KIOSK_VAULT, KIOSK_PROVISIONED_CREDENTIALS; the OS
 * keychain or a provisioned file: Electron's safeStorage needs Electron); KIOSK_DATA_DIR,
 * KIOSK_PORT (default: a free port), KIOSK_ADMIN_PIN (demo default 0000), KIOSK_SHOP_ID,
 * KIOSK_PRINTER, KIOSK_API_PROFILE (the integration profile file), KIOSK_RENDERER_DIR (default dist/renderer), KIOSK_LOG (a file for the JSON log,
 * rotated at KIOSK_LOG_MAX_BYTES, KIOSK_LOG_FILES files kept).
 *
 * Exit codes: 0 stopped by a signal; 1 a refused setting, or a failure; 8 the data directory or
 * the database cannot be used (empty, not SQLite, damaged, from a newer build), as kioskctl.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  cliVaultConfig,
  createVaultChain,
  findConfiguredCredentials,
  type VaultChain,
} from '../credentials/index.ts';
import {
  createKioskServices,
  decideStart,
  deploymentBaseUrl,
  fixedCredentials,
  type KioskCredentials,
  type StartDecision,
  vaultCredentials,
} from '../kiosk/index.ts';
import {
  type LogSettings,
  createRedactingLogger,
  openLogSink,
  readLogSettings,
} from '../logging/index.ts';
import { startBrowserHost } from './browser-host.ts';
import { startupRefusalOf } from './startup-refusal.ts';

const env = process.env;
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The demo's PIN is public (printed below); a real kiosk gets KIOSK_ADMIN_PIN or none. */
const DEMO_ADMIN_PIN = '0000';

function fail(message: string): never {
  process.stderr.write(`kiosk: ${message}\n`);
  process.exit(1);
}

let logSettings: LogSettings;
try {
  logSettings = readLogSettings(env);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
// Never throws into the program: a full disk or a closed stderr drops (and counts) lines.
const logSink = openLogSink(logSettings, process.stderr);
const logger = createRedactingLogger({
  sink: (line) => logSink.write(line),
  level: logSettings.file === undefined ? 'warn' : 'info',
});

// Settings live in the kiosk's data directory, also for the demo (whose database does not): the
// service an administrator chose in setup is read from there and wins over KIOSK_API_BASE_URL.
const settingsDir = resolve(
  env['KIOSK_DATA_DIR'] ?? join(homedir(), '.local', 'share', 'commerce-kiosk'),
);
const port = env['KIOSK_PORT'] ? Number(env['KIOSK_PORT']) : 0;
if (!Number.isInteger(port) || port < 0 || port > 65_535) fail('KIOSK_PORT must be a port number');
const configuredPin = env['KIOSK_ADMIN_PIN'] || undefined;

let deployedBaseUrl: string | undefined;
let chain: VaultChain | 'none';
try {
  deployedBaseUrl = deploymentBaseUrl(env['KIOSK_API_BASE_URL'], 'KIOSK_API_BASE_URL');
  const config = cliVaultConfig({ dataDir: settingsDir }, env);
  chain = config === 'none' ? 'none' : createVaultChain(config);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const vault = chain;

/** The deployment's credentials for a real API, from the environment or the vault. */
function apiCredentials(): KioskCredentials {
  // Credentials that name no API belong to the deployment's, never to one saved in setup.
  const defaultOrigin = deployedBaseUrl === undefined ? undefined : new URL(deployedBaseUrl).origin;
  const email = env['KIOSK_API_EMAIL'];
  const password = env['KIOSK_API_PASSWORD'];
  if (email && password) {
    return fixedCredentials({ email, password, origin: defaultOrigin }, 'environment');
  }
  if (vault === 'none') fail('KIOSK_VAULT=none: set KIOSK_API_EMAIL and KIOSK_API_PASSWORD');
  return vaultCredentials(vault, { defaultOrigin });
}

let decision: StartDecision;
try {
  decision = await decideStart({
    settingsDir,
    baseUrl: deployedBaseUrl,
    // Loaded for the demo only: a kiosk on its service would spend a tenth of its start on the
    // sandbox's modules (fastify, the demo data), measured by test/bench/cold-start.bench.ts.
    startSandbox: async () => (await import('../../sandbox/index.ts')).startSandbox({ port: 0 }),
    findCredentials: () => findConfiguredCredentials(vault, env),
    apiCredentials,
    ...(configuredPin === undefined ? {} : { adminPin: configuredPin }),
    demoAdminPin: DEMO_ADMIN_PIN,
    logger,
  });
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const { choice, demo, sandbox, credentials, adminPin } = decision;

// The demo's data goes with the demo: the sandbox starts from its seed on every run, so an
// outbox or a mirror kept from a previous run would describe another world.
const dataDir = demo ? mkdtempSync(join(tmpdir(), 'commerce-kiosk-demo-')) : settingsDir;

/**
 * The kiosk's services could not start (a database that is empty, not SQLite, damaged or from a
 * newer build; a bad setting): one paragraph saying why, as kioskctl words it, and its exit code
 * (8: storage), never a stack trace. What was started is stopped; the files are left untouched.
 */
async function refuseStart(error: unknown): Promise<never> {
  const refusal = startupRefusalOf(error);
  // On stderr the paragraph below says it; a log file keeps it too.
  if (logSettings.file !== undefined)
    logger.error('kiosk.start_refused', { exitCode: refusal.exitCode, error });
  await sandbox?.close().catch(() => undefined);
  if (demo) rmSync(dataDir, { recursive: true, force: true });
  process.stderr.write(`kiosk: cannot start: ${refusal.message}\n`);
  await logSink.close();
  process.exit(refusal.exitCode);
}

const services = await createKioskServices({
  dataDir,
  api: { baseUrl: decision.baseUrl, demo, sandboxAvailable: decision.sandboxAvailable },
  settingsDir,
  credentials,
  host: 'browser',
  ...(adminPin === undefined ? {} : { adminPin }),
  ...(env['KIOSK_SHOP_ID'] ? { shopId: env['KIOSK_SHOP_ID'] } : {}),
  ...(env['KIOSK_PRINTER'] ? { printing: { printer: env['KIOSK_PRINTER'] } } : {}),
  ...(env['KIOSK_API_PROFILE'] ? { profileFile: env['KIOSK_API_PROFILE'] } : {}),
  environment: env,
  logger,
}).catch(refuseStart);
const host = await startBrowserHost({
  services,
  rendererDir: resolve(env['KIOSK_RENDERER_DIR'] ?? join(repoRoot, 'dist', 'renderer')),
  port,
  logger,
}).catch(async (error: unknown) => {
  await services.close();
  return refuseStart(error);
});
if (decision.startServices) services.start();

process.stdout.write(
  [
    `kiosk: ${
      choice.kind === 'demo'
        ? 'demo on the embedded sandbox'
        : choice.kind === 'api'
          ? `Commerce API at ${services.apiOrigin}`
          : 'no demo: locked on setup'
    } (data: ${dataDir})`,
    ...(choice.kind === 'setup-required'
      ? [`kiosk: ${(await credentials.store.status()).problem?.message ?? ''}`]
      : []),
    // Only the demo's own PIN is shown; one an administrator set is never printed.
    ...(configuredPin !== undefined
      ? ['kiosk: administrator PIN: from KIOSK_ADMIN_PIN']
      : demo
        ? [`kiosk: demo administrator PIN: ${DEMO_ADMIN_PIN}`]
        : []),
    `kiosk: open ${host.url}`,
    '',
  ].join('\n'),
);

let stopping = false;
async function stop(): Promise<void> {
  // A second signal, or a shutdown stuck on a slow request, ends the process anyway.
  if (stopping) process.exit(1);
  stopping = true;
  setTimeout(() => process.exit(1), 10_000).unref();
  await host.close();
  await services.close();
  await sandbox?.close();
  if (demo) rmSync(dataDir, { recursive: true, force: true });
  await logSink.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
