/**
 * The project's own kiosk app (what `npm start` runs under Electron and electron-builder packs):
 * the first consumer of the package, importing only its public entry points, as an
 * integrator's app does. It runs on the embedded sandbox unless KIOSK_API_BASE_URL is set or
 * setup saved a base URL (which takes precedence), and never beside configured credentials (then
 * it starts locked on setup).
 *
 * Configuration (environment): KIOSK_API_BASE_URL; the credentials from KIOSK_API_EMAIL +
 * KIOSK_API_PASSWORD when set, else the vault chain (KIOSK_VAULT, KIOSK_PROVISIONED_CREDENTIALS,
 * as kioskctl reads them); KIOSK_DATA_DIR, KIOSK_ADMIN_PIN, KIOSK_SHOP_ID, KIOSK_PRINTER,
 * KIOSK_KIOSK_MODE=1 (full-screen kiosk), KIOSK_LOG (a file for the JSON log, rotated at
 * KIOSK_LOG_MAX_BYTES, KIOSK_LOG_FILES files kept; default stderr).
 *
 * Exit codes when it cannot start: 8 the data directory or the database cannot be used (empty,
 * not SQLite, damaged, from a newer build), as kioskctl; 1 any other refusal (a bad setting).
 */
import { join } from 'node:path';
import * as electron from 'electron';
import {
  type ElectronModule,
  cliVaultConfig,
  createKioskIntegration,
  createRedactingLogger,
  deploymentBaseUrl,
  fixedCredentials,
  openLogSink,
  readLogSettings,
  registerKioskScheme,
  startupRefusalOf,
} from 'commerce-kiosk';
import { startSandbox } from 'commerce-kiosk/sandbox';

const env = process.env;
// The real module checked against the structural type the integration takes.
const electronModule: ElectronModule = electron;
// Never throws into the program: a full disk or a closed stderr drops (and counts) lines.
const logSink = openLogSink(readLogSettings(env), process.stderr);
const logger = createRedactingLogger({ sink: (line) => logSink.write(line) });

// The app registers no scheme of its own: the kiosk's is the one privileged scheme.
registerKioskScheme(electronModule);

// The one base-URL rule: https, or http to this machine only (throws, naming the variable).
const baseUrl = deploymentBaseUrl(env['KIOSK_API_BASE_URL'], 'KIOSK_API_BASE_URL');
const email = env['KIOSK_API_EMAIL'];
const password = env['KIOSK_API_PASSWORD'];

const dataDir = env['KIOSK_DATA_DIR'] ?? join(electron.app.getPath('userData'), 'kiosk');
const vaultConfig = cliVaultConfig({ dataDir }, env);

/**
 * A start the kiosk refuses (its database lost, emptied, damaged or from a newer build; a bad
 * setting): said on the screen, where staff are, and on stderr as the browser host says it, then
 * the documented exit code (8: storage, as kioskctl; 1: any other refusal); never a stack trace.
 */
async function refuseToStart(error: unknown): Promise<never> {
  const refusal = startupRefusalOf(error);
  process.stderr.write(`kiosk: cannot start: ${refusal.message}\n`);
  logger.error('kiosk.host.start_refused', { code: refusal.code, exitCode: refusal.exitCode });
  electron.dialog.showErrorBox('Kiosk', `cannot start: ${refusal.message}`);
  await logSink.close();
  electron.app.exit(refusal.exitCode);
  // app.exit ends the process; nothing after it runs.
  return process.exit(refusal.exitCode);
}

const kiosk = await createKioskIntegration({
  electron: electronModule,
  dataDir,
  ...(baseUrl === undefined ? {} : { baseUrl }),
  ...(email && password
    ? {
        // Bound to KIOSK_API_BASE_URL: never sent to a base URL saved in setup.
        vault: fixedCredentials(
          { email, password, origin: baseUrl === undefined ? undefined : new URL(baseUrl).origin },
          'environment',
        ),
      }
    : vaultConfig === 'none'
      ? {}
      : { vault: vaultConfig }),
  // Started only where no credentials are configured: else the kiosk starts locked on setup.
  startSandbox: () => startSandbox({ port: 0 }),
  window: { kiosk: env['KIOSK_KIOSK_MODE'] === '1' },
  // The app is the whole app: one instance, a second one brings the kiosk forward.
  singleInstance: true,
  // The demo's PIN is public, as the demo data, and in force in the demo only; a real (or
  // locked) kiosk gets KIOSK_ADMIN_PIN or none.
  ...(env['KIOSK_ADMIN_PIN'] ? { adminPin: env['KIOSK_ADMIN_PIN'] } : {}),
  demoAdminPin: '0000',
  ...(env['KIOSK_SHOP_ID'] ? { shopId: env['KIOSK_SHOP_ID'] } : {}),
  ...(env['KIOSK_PRINTER'] ? { printers: { printer: env['KIOSK_PRINTER'] } } : {}),
  versions: {
    electron: process.versions.electron ?? null,
    chrome: process.versions.chrome ?? null,
  },
  logger,
}).catch(refuseToStart);

if (kiosk?.status === 'running') {
  electron.app.on('window-all-closed', () => {
    void kiosk
      .close()
      .finally(() => logSink.close())
      .finally(() => electron.app.quit());
  });
}
