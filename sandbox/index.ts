import type { AddressInfo } from 'node:net';
import type { DialectName } from './dialects/index.ts';
import type { AccountCredentials } from './server/accounts.ts';
import { buildApp } from './server/app.ts';
import { SandboxControl } from './server/control.ts';
import type { SandboxOptions } from './server/options.ts';
import { SandboxState } from './server/state.ts';

export type { AccountCredentials } from './server/accounts.ts';
export type { SandboxControl } from './server/control.ts';
export type { FaultSpec, Fault } from './server/faults.ts';
export type { LedgerEntry } from './server/ledger.ts';
export type { SandboxOptions } from './server/options.ts';
export { type DialectName, dialectNames } from './dialects/index.ts';
export type { AccountView, OutageView } from './server/control.ts';
export type { LogSink as SandboxLogSink } from './server/log.ts';
export type { RateLimitSettings } from './server/rate-limit.ts';
export type { RequestRateSecond } from './server/request-rate.ts';
export type { CatalogChange } from '../shared/api/catalog.ts';
export type { Scope } from '../shared/api/scopes.ts';
/** The seeded demo records' identifiers and promised traits, for the integrator's own tests. */
export {
  demoCustomers,
  demoGiftCardBalances,
  demoGiftCards,
  demoProducts,
  demoSales,
  demoSav,
} from './data/demo.ts';

export interface RunningSandbox {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly baseUrl: string;
  /** The seeded integration accounts, with their scopes at start-up. */
  readonly accounts: readonly AccountCredentials[];
  /** How the 'not shown' records, parameters and debit body are shaped on the wire. */
  readonly dialect: DialectName;
  /** The in-process controls (clock, faults, accounts, ledger...), present with `control: true`. */
  readonly control?: SandboxControl;
  /** Stops listening, drops open connections and the activity timer. */
  close(): Promise<void>;
}

/** Starts a sandbox on 127.0.0.1 and resolves once it listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const state = new SandboxState(options);
  const control = options.control === true;
  const app = buildApp(state, { control });
  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const { port } = app.server.address() as AddressInfo;

  let timer: NodeJS.Timeout | undefined;
  if (options.activityIntervalMs !== undefined && options.activityIntervalMs > 0) {
    timer = setInterval(() => state.advanceActivity(1), options.activityIntervalMs);
    timer.unref();
  }

  let closing: Promise<void> | undefined;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    accounts: state.accounts.credentials(),
    dialect: state.dialect.name,
    ...(control ? { control: new SandboxControl(state) } : {}),
    close() {
      closing ??= (async () => {
        if (timer) clearInterval(timer);
        await app.close();
      })();
      return closing;
    },
  };
}
