import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBrowserHost } from '../../../electron/host/browser-host.ts';
import { fixedCredentials } from '../../../electron/kiosk/credential-store.ts';
import {
  createKioskServices,
  type WiredKioskServices,
} from '../../../electron/kiosk/kiosk-services.ts';
import type { OfflineLimits } from '../../../electron/outbox/limits.ts';
import { startSandbox, type SandboxLogSink } from '../../../sandbox/index.ts';
import { startServiceLink, type ServiceLink } from './link.ts';

export const RENDERER_DIR = fileURLToPath(new URL('../../../dist/renderer/', import.meta.url));
export const ADMIN_PIN = '1234';

export interface KioskOptions {
  /** The sandbox account the kiosk logs in with (default: every scope). */
  readonly account?: string;
  readonly shopId?: string;
  /** A private CUPS scheduler and the queue to print to. */
  readonly printing?: { readonly cupsServer: string; readonly printer: string };
  /** The kiosk host's system locale (main's default language); English unless given. */
  readonly systemLocale?: string;
  /** Another build of the renderer (the benchmarks build their own). */
  readonly rendererDir?: string;
  /** How the sandbox shapes what the spec does not show (default: its default dialect). */
  readonly dialect?: 'default' | 'alternate' | 'minimal';
  /** Where the sandbox's log lines go (one JSON object a line, a request's status among them). */
  readonly sandboxLog?: SandboxLogSink;
  /** The integration profile file the kiosk is deployed with (KIOSK_API_PROFILE). */
  readonly profileFile?: string;
  /** The kiosk reaches the service through a TCP link the test can cut (`RunningKiosk.link`). */
  readonly link?: boolean;
  /** The outbox's offline limits (default: the kiosk's defaults). */
  readonly limits?: Partial<OfflineLimits>;
}

export interface RunningKiosk {
  /** What to open in the browser: the host's page with its token. */
  readonly url: string;
  /** The sandbox, for its control surface (`/__sandbox/...`). */
  readonly sandboxUrl: string;
  readonly services: WiredKioskServices;
  /** The kiosk's data directory (its settings file, database). */
  readonly dataDir: string;
  /** The link between the kiosk and the service, when `link` was asked for. */
  readonly link?: ServiceLink;
  close(): Promise<void>;
}

/**
 * The kiosk as `npm start` runs it without Electron, in this process: the sandbox (with its
 * control surface, for faults and the ledger), the real kiosk services on a temporary data
 * directory, and the loopback browser host serving the built renderer.
 */
export async function startKiosk(options: KioskOptions = {}): Promise<RunningKiosk> {
  const sandbox = await startSandbox({
    port: 0,
    control: true,
    dialect: options.dialect ?? 'default',
    ...(options.sandboxLog ? { log: options.sandboxLog } : {}),
  });
  const email = options.account ?? 'kiosk-all@sandbox.test';
  const account = sandbox.accounts.find((candidate) => candidate.email === email);
  if (!account) throw new Error(`the sandbox has no account ${email}`);
  const dataDir = await mkdtemp(join(tmpdir(), 'kiosk-e2e-'));
  const link = options.link ? await startServiceLink(sandbox.baseUrl) : undefined;
  const services = await createKioskServices({
    dataDir,
    api: { baseUrl: link?.url ?? sandbox.baseUrl, demo: true },
    ...(options.limits ? { limits: options.limits } : {}),
    credentials: fixedCredentials(account, 'sandbox'),
    host: 'browser',
    adminPin: ADMIN_PIN,
    // Not this machine's locale: the journeys read English unless they ask for another system.
    systemLocale: options.systemLocale ?? 'en-IE',
    ...(options.shopId ? { shopId: options.shopId } : {}),
    ...(options.printing
      ? {
          printing: {
            backend: 'cups',
            cupsServer: options.printing.cupsServer,
            printer: options.printing.printer,
          },
        }
      : {}),
    // No periodic health probe: the sandbox's faults never touch /health, so a probe would call
    // the service back online while every operation is dropped. Connectivity then follows the
    // operations, and staff's "Check connection" (a probe) brings it back.
    connectivityProbeMs: 0,
    ...(options.profileFile ? { profileFile: options.profileFile } : {}),
  });
  const host = await startBrowserHost({
    services,
    rendererDir: options.rendererDir ?? RENDERER_DIR,
    port: 0,
  });
  services.start();
  return {
    url: host.url,
    sandboxUrl: sandbox.baseUrl,
    services,
    dataDir,
    ...(link ? { link } : {}),
    async close() {
      await host.close();
      await services.close();
      await link?.close();
      await sandbox.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
