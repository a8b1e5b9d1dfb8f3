import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { main } from '../../../electron/cli/kioskctl.ts';
import type { IntegrationProfileInput } from '../../../shared/profile/index.ts';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.ts';

/**
 * `kioskctl contract check` sends exactly what the kiosk sends: its queries come from the same
 * builders as the kiosk's handlers (shared/profile/queries.ts). Against the strict `minimal`
 * dialect, which refuses (400) every query parameter the specification does not list for the
 * route, a parameter the spec does not list and the profile does not name fails the check (exit
 * 11): that refusal is this test.
 */

const minimalProfile = new URL('../../../sandbox/dialects/minimal.profile.json', import.meta.url)
  .pathname;

let sandbox: RunningSandbox;
let env: Record<string, string>;
const dir = mkdtempSync(join(tmpdir(), 'kiosk-contract-minimal-'));
const replies: { route: string | null; status: number }[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    dialect: 'minimal',
    log: (line) => {
      const entry = JSON.parse(line) as { msg?: string; route?: string | null; status?: number };
      if (entry.msg === 'request' && typeof entry.status === 'number')
        replies.push({ route: entry.route ?? null, status: entry.status });
    },
  });
  const account = sandbox.accounts.find((a) => a.email === 'kiosk-all@sandbox.test')!;
  env = {
    KIOSK_API_BASE_URL: sandbox.baseUrl,
    KIOSK_API_EMAIL: account.email,
    KIOSK_API_PASSWORD: account.password,
  };
});
afterAll(() => sandbox.close());
beforeEach(() => {
  replies.length = 0;
});

async function check(profile: string, args: readonly string[] = []) {
  let stdout = '';
  let stderr = '';
  const code = await main(['--profile', profile, 'contract', 'check', ...args], {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env,
  });
  return { code, stdout, stderr };
}

type Mutable<T> = { -readonly [K in keyof T]: Mutable<T[K]> };
type Editable = Mutable<IntegrationProfileInput> & {
  records: { customer: Record<string, unknown> };
  parameters: Mutable<NonNullable<IntegrationProfileInput['parameters']>>;
};

/** The minimal profile with one change. */
function variant(name: string, change: (profile: Editable) => void): string {
  const { $schema: _schema, ...profile } = JSON.parse(
    readFileSync(minimalProfile, 'utf8'),
  ) as Editable & {
    $schema?: string;
  };
  change(profile);
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(profile));
  return file;
}

describe('kioskctl contract check against the minimal dialect', { timeout: 60_000 }, () => {
  test('with its profile: every read answered, no 400 for a parameter, exit 0', async () => {
    const run = await check(minimalProfile, ['--json']);
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as {
      ok: boolean;
      refused: string[];
      operations: { operationId: string; outcome: string; status: number | null }[];
    };
    expect(report.refused).toEqual([]);
    expect(replies.filter((reply) => reply.status === 400)).toEqual([]);
    for (const operationId of [
      'getCustomer',
      'searchCustomers',
      'getCustomerHistory',
      'listCustomerCredits',
      'getSavLog',
      'listProductItems',
      'listCharacteristicValues',
    ])
      expect(
        report.operations.find((o) => o.operationId === operationId)?.outcome,
        operationId,
      ).toBe('ok');
    expect(run.code).toBe(0);
    expect(report.ok).toBe(true);
  });

  test('a contact parameter the spec does not list: refused by the service, exit 11', async () => {
    const run = await check(
      variant('contact', (profile) => {
        profile.parameters.customerContact = { name: 'include', value: 'contact' };
      }),
    );
    expect(run.code).toBe(11);
    expect(run.stderr).toContain('getCustomer: 400');
  });

  test('a search criterion the spec does not list: refused by the service, exit 11', async () => {
    const run = await check(
      variant('criterion', (profile) => {
        profile.parameters.customerSearch.lastName = 'lastName';
        profile.records.customer.lastName = 'family';
      }),
    );
    expect(run.code).toBe(11);
    expect(run.stderr).toContain('searchCustomers: 400');
  });

  test('a list paged on a service that pages none of them: refused, exit 11', async () => {
    const run = await check(
      variant('paged', (profile) => {
        profile.parameters.page = 'page';
        profile.parameters.limit = 'limit';
        profile.parameters.unpaged = [];
      }),
    );
    expect(run.code).toBe(11);
    expect(run.stderr).toMatch(/listShops: 400/);
  });
});
