import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIpcRouter, type IpcRouter } from '../../../electron/ipc/router.ts';
import { fixedCredentials } from '../../../electron/kiosk/credential-store.ts';
import {
  type WiredKioskServices,
  type KioskServicesOptions,
  createKioskServices,
} from '../../../electron/kiosk/kiosk-services.ts';
import type { Logger } from '../../../electron/logging/redacting-logger.ts';
import type { IpcResult, MessageName, ReplyOf, RequestOf } from '../../../shared/ipc/index.ts';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.ts';

export const APP_ORIGIN = 'commerce-kiosk://kiosk';
export const KIOSK_PAGE = {
  frameUrl: 'commerce-kiosk://kiosk/index.html',
  isMainFrame: true,
} as const;
export const ADMIN_PIN = '4821';

export interface KioskFixture {
  readonly sandbox: RunningSandbox;
  readonly services: WiredKioskServices;
  readonly router: IpcRouter;
  readonly dataDir: string;
  /** Sandbox HTTP requests seen so far (from its request log). */
  requestCount(): number;
  close(): Promise<void>;
}

/**
 * The real thing, small: the sandbox over HTTP (40 products), the kiosk services on a temporary
 * SQLite database, the router as the Electron host builds it (origin commerce-kiosk://kiosk). Background
 * work (probes, sync loop, sender) is not started unless the test asks.
 */
export async function startKioskFixture(
  options: {
    readonly email?: string;
    readonly logger?: Logger;
    /** How the sandbox shapes what the spec does not show (default: its default dialect). */
    readonly dialect?: 'default' | 'alternate' | 'minimal';
    /** Every line of the sandbox's log (its request log says each reply's status). */
    readonly sandboxLog?: (line: string) => void;
    readonly services?: Partial<Omit<KioskServicesOptions, 'dataDir' | 'api' | 'credentials'>>;
  } = {},
): Promise<KioskFixture> {
  let requests = 0;
  const sandbox = await startSandbox({
    port: 0,
    products: 40,
    control: true,
    dialect: options.dialect ?? 'default',
    log: (line: string) => {
      options.sandboxLog?.(line);
      if (line.includes('"msg":"request"')) requests += 1;
    },
  });
  const account =
    sandbox.accounts.find((entry) => entry.email === (options.email ?? 'kiosk-all@sandbox.test')) ??
    sandbox.accounts[0]!;
  const dataDir = await mkdtemp(join(tmpdir(), 'kiosk-test-'));
  const services = await createKioskServices({
    dataDir,
    api: { baseUrl: sandbox.baseUrl, demo: true },
    credentials: fixedCredentials(account, 'sandbox'),
    host: 'electron',
    adminPin: ADMIN_PIN,
    connectivityProbeMs: 0,
    printing: { backend: 'cups', cupsServer: '127.0.0.1:9' },
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...options.services,
  });
  const router = createIpcRouter({
    handlers: services.handlers,
    allowedOrigins: [APP_ORIGIN],
    adminGuard: services.adminGuard,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  return {
    sandbox,
    services,
    router,
    dataDir,
    requestCount: () => requests,
    async close() {
      await services.close();
      await sandbox.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A message sent as the kiosk's own page sends it; the result as the renderer gets it. */
export async function send<N extends MessageName>(
  fixture: KioskFixture,
  name: N,
  request: RequestOf<N>,
): Promise<IpcResult<ReplyOf<N>>> {
  return (await fixture.router.handle(`kiosk:${name}`, request, KIOSK_PAGE)) as IpcResult<
    ReplyOf<N>
  >;
}

/** The reply to a message that must succeed; a failure throws, naming the message. */
export async function replyTo<N extends MessageName>(
  fixture: KioskFixture,
  name: N,
  request: RequestOf<N>,
): Promise<ReplyOf<N>> {
  const result = await send(fixture, name, request);
  if (!result.ok) throw new Error(`${name}: ${JSON.stringify(result.error)}`);
  return result.value;
}
