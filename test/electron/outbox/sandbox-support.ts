import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { createApiClient, type CommerceApiClient } from '../../../electron/api/client.ts';
import type { Clock } from '../../../electron/foundation/clock.ts';
import type { Logger } from '../../../electron/logging/index.ts';
import type { ExchangeEvent } from '../../../electron/api/invoke.ts';
import { createApiGateway, outboxClientRetry } from '../../../electron/outbox/api-gateway.ts';
import type { DebitGateway } from '../../../electron/outbox/gateway.ts';
import type { IntegrationProfile } from '../../../shared/profile/index.ts';
import {
  type DialectName,
  startSandbox,
  type RunningSandbox,
  type SandboxControl,
} from '../../../sandbox/index.ts';

import { tempDataDir } from './support.ts';

export const ALL_SCOPES_ACCOUNT = 'kiosk-all@sandbox.test';

export interface TestSandbox {
  readonly sandbox: RunningSandbox;
  readonly control: SandboxControl;
  readonly baseUrl: string;
  /** A client as the outbox uses it: one HTTP attempt per debit call. */
  client(options?: {
    email?: string;
    responseMs?: number;
    onExchange?: (event: ExchangeEvent) => void;
    /** The kiosk's clock, shared with the outbox: token expiry, backoff, the service clock. */
    clock?: Clock;
    logger?: Logger;
  }): CommerceApiClient;
  gateway(client: CommerceApiClient, profile?: () => IntegrationProfile): DebitGateway;
  close(): Promise<void>;
}

/**
 * The real sandbox over HTTP, small catalogue (the outbox only needs the gift cards), in its
 * default dialect or another one.
 */
export async function startTestSandbox(
  seed = 1,
  options: { readonly dialect?: DialectName } = {},
): Promise<TestSandbox> {
  const sandbox = await startSandbox({
    port: 0,
    seed,
    control: true,
    products: 10,
    ...(options.dialect ? { dialect: options.dialect } : {}),
  });
  const control = sandbox.control;
  if (!control) throw new Error('the sandbox started without its control surface');
  const clients: CommerceApiClient[] = [];
  return {
    sandbox,
    control,
    baseUrl: sandbox.baseUrl,
    client: ({
      email = ALL_SCOPES_ACCOUNT,
      responseMs = 3_000,
      onExchange,
      clock,
      logger,
    } = {}) => {
      const account = sandbox.accounts.find((entry) => entry.email === email);
      if (!account) throw new Error(`no sandbox account ${email}`);
      const client = createApiClient({
        baseUrl: sandbox.baseUrl,
        credentials: async () => ({ email: account.email, password: account.password }),
        retry: outboxClientRetry,
        timeouts: { connectMs: 1_000, responseMs },
        ...(onExchange ? { onExchange } : {}),
        ...(clock ? { clock } : {}),
        ...(logger ? { logger } : {}),
      });
      clients.push(client);
      return client;
    },
    gateway: createApiGateway,
    close: async () => {
      for (const client of clients) client.close();
      await sandbox.close();
    },
  };
}

export interface SandboxBed {
  readonly sb: TestSandbox;
  readonly data: ReturnType<typeof tempDataDir>;
  /** Stopped after the test, whatever it ends with. */
  stopLater<T extends { stop(): Promise<void> }>(started: T): T;
}

/**
 * The lifecycle most outbox tests share, registered in the calling file: one sandbox for the
 * file, reset before each test, a fresh data directory per test, and whatever a test started
 * (a sender) stopped after it.
 */
export function useSandboxBed(): SandboxBed {
  let sandbox: TestSandbox | undefined;
  let data: ReturnType<typeof tempDataDir> | undefined;
  const started: { stop(): Promise<void> }[] = [];
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  beforeEach(() => {
    sandbox!.control.reset();
    data = tempDataDir();
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((thing) => thing.stop()));
    data?.cleanup();
  });
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the sandbox bed has no ${what} outside a test`);
    return value;
  };
  return {
    get sb() {
      return ready(sandbox, 'sandbox');
    },
    get data() {
      return ready(data, 'data directory');
    },
    stopLater(thing) {
      started.push(thing);
      return thing;
    },
  };
}
