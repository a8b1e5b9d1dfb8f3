import { startSandbox } from '../../../../sandbox/index.ts';

/**
 * The project's sandbox (the real local API) plus a small client for its `/__sandbox/` control
 * surface. The control calls use plain fetch: they are the test's hands, not the code under test.
 */

export interface SandboxAccount {
  readonly email: string;
  readonly password: string;
  readonly scopes: readonly string[];
}

export interface FaultSpec {
  readonly kind:
    'latency' | 'rate-limit' | 'internal-error' | 'unavailable' | 'reset' | 'commit-then-reset';
  readonly route?: string;
  readonly method?: 'GET' | 'PUT' | 'POST';
  readonly count?: number;
  readonly latencyMs?: number;
  readonly retryAfterSeconds?: number;
}

export interface LedgerEntry {
  readonly giftCardId: string;
  readonly usageId: string;
  readonly amount: number;
  readonly idempotencyKey: string;
  readonly reference: string | null;
}

export interface TestSandbox {
  readonly baseUrl: string;
  readonly accounts: readonly SandboxAccount[];
  /** The account holding every scope. */
  readonly full: SandboxAccount;
  account(predicate: (scopes: readonly string[]) => boolean): SandboxAccount;
  control: {
    addFault(spec: FaultSpec): Promise<void>;
    clearFaults(): Promise<void>;
    revokeAccount(email: string): Promise<void>;
    restoreAccount(email: string): Promise<void>;
    setScopes(email: string, scopes: readonly string[]): Promise<void>;
    advanceClock(ms: number): Promise<string>;
    advanceActivity(steps: number): Promise<void>;
    now(): Promise<string>;
    ledger(giftCardId?: string): Promise<LedgerEntry[]>;
    reset(): Promise<void>;
  };
  close(): Promise<void>;
}

export async function startTestSandbox(
  options: { products?: number; tokenTtlSeconds?: number } = {},
): Promise<TestSandbox> {
  const sandbox = await startSandbox({ port: 0, control: true, ...options });
  const baseUrl = sandbox.baseUrl.replace(/\/+$/, '');
  const accounts = sandbox.accounts as readonly SandboxAccount[];

  const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${baseUrl}/__sandbox${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok)
      throw new Error(`sandbox control ${method} ${path}: ${response.status} ${text}`);
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  };

  const maxScopes = Math.max(...accounts.map((account) => account.scopes.length));
  const full = accounts.find((account) => account.scopes.length === maxScopes);
  if (!full) throw new Error('the sandbox has no account');

  return {
    baseUrl,
    accounts,
    full,
    account(predicate) {
      const found = accounts.find((account) => predicate(account.scopes));
      if (!found) throw new Error('no sandbox account matches');
      return found;
    },
    control: {
      addFault: async (spec) => void (await call('POST', '/faults', spec)),
      clearFaults: async () => void (await call('DELETE', '/faults')),
      revokeAccount: async (email) =>
        void (await call('POST', `/accounts/${encodeURIComponent(email)}/revoke`)),
      restoreAccount: async (email) =>
        void (await call('POST', `/accounts/${encodeURIComponent(email)}/restore`)),
      setScopes: async (email, scopes) =>
        void (await call('PUT', `/accounts/${encodeURIComponent(email)}/scopes`, { scopes })),
      advanceClock: async (ms) =>
        ((await call('POST', '/clock/advance', { ms })) as { now: string }).now,
      advanceActivity: async (steps) => void (await call('POST', '/activity/advance', { steps })),
      now: async () => ((await call('GET', '/clock')) as { now: string }).now,
      ledger: async (giftCardId) =>
        (
          (await call(
            'GET',
            `/ledger${giftCardId ? `?giftCardId=${encodeURIComponent(giftCardId)}` : ''}`,
          )) as { debits: LedgerEntry[] }
        ).debits,
      reset: async () => void (await call('POST', '/reset')),
    },
    close: () => Promise.resolve(sandbox.close()),
  };
}
