import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../../electron/cli/kioskctl.ts';
import { loadProfileFile } from '../../../electron/profile/index.ts';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.ts';

/**
 * `kioskctl contract check` and `contract import` as an integrator runs them, against a sandbox
 * that shapes every 'not shown' record its own way (the alternate dialect).
 */

const alternateProfile = new URL(
  '../../../sandbox/dialects/alternate.profile.json',
  import.meta.url,
).pathname;
const alternateContract = new URL(
  '../../../sandbox/dialects/alternate.openapi.json',
  import.meta.url,
).pathname;
const ownContract = new URL('../../../shared/api/openapi.json', import.meta.url).pathname;

let sandbox: RunningSandbox;
let env: Record<string, string>;
const dir = mkdtempSync(join(tmpdir(), 'kiosk-contract-'));

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dialect: 'alternate' });
  const account = sandbox.accounts.find((a) => a.email === 'kiosk-all@sandbox.test')!;
  env = {
    KIOSK_API_BASE_URL: sandbox.baseUrl,
    KIOSK_API_EMAIL: account.email,
    KIOSK_API_PASSWORD: account.password,
  };
});
afterAll(() => sandbox.close());

async function kioskctl(argv: readonly string[], extraEnv: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env: { ...env, ...extraEnv },
  });
  return { code, stdout, stderr };
}

describe('kioskctl contract check', { timeout: 30_000 }, () => {
  test('with the dialect’s own profile: everything the kiosk needs resolves, exit 0', async () => {
    const run = await kioskctl(['--profile', alternateProfile, 'contract', 'check', '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      ok: boolean;
      operations: {
        operationId: string;
        outcome: string;
        values: { record: string; field: string; status: string; path: string | null }[];
      }[];
    };
    expect(report.ok).toBe(true);
    const card = report.operations.find((o) => o.operationId === 'getGiftCard');
    expect(card?.outcome).toBe('ok');
    expect(
      card?.values.find((v) => v.record === 'giftCard' && v.field === 'balance'),
    ).toMatchObject({
      status: 'found',
      path: 'funds.remaining',
    });
  });

  test('with the default profile: exit 11, the reads the service refuses named (a 4xx wins over missing values)', async () => {
    const run = await kioskctl(['contract', 'check']);
    expect(run.code).toBe(11);
    const error = JSON.parse(run.stderr.trim()) as { error: { code: string; message: string } };
    expect(error.error.code).toBe('CONTRACT_READ_REFUSED');
    expect(error.error.message).toContain('listShops: 400');
    expect(run.stdout).toMatch(/REFUSED \(reads the kiosk makes\): .*listShops: 400/);
    // The table says why: the service refuses the guessed page parameter.
    expect(run.stdout).toMatch(/listShops\s+400\s+error.*unknown query parameter `page`/);
  });

  test('the same through KIOSK_API_PROFILE; a broken profile file is refused before anything is sent', async () => {
    expect(
      (await kioskctl(['contract', 'check'], { KIOSK_API_PROFILE: alternateProfile })).code,
    ).toBe(0);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"profileVersion": 2}');
    const run = await kioskctl(['--profile', broken, 'contract', 'check']);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stderr.trim())).toMatchObject({ error: { code: 'PROFILE_INVALID' } });
    const missing = await kioskctl(['--profile', join(dir, 'nope.json'), 'contract', 'check']);
    expect(JSON.parse(missing.stderr.trim())).toMatchObject({
      error: { code: 'PROFILE_NOT_FOUND' },
    });
  });
});

describe('kioskctl contract import', { timeout: 30_000 }, () => {
  test('the project’s own contract: no difference, exit 0', async () => {
    const run = await kioskctl(['contract', 'import', ownContract, '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ differences: [] });
  });

  test('the alternate vendor contract: its differences (exit 10), and a profile that check accepts', async () => {
    const written = join(dir, 'derived.json');
    const run = await kioskctl([
      'contract',
      'import',
      alternateContract,
      '--write-profile',
      written,
      '--json',
    ]);
    expect(run.code).toBe(10);
    const { differences } = JSON.parse(run.stdout) as {
      differences: { where: string; message: string }[];
    };
    expect(differences).toContainEqual({
      where: 'giftCard.balance',
      message: 'the profile reads balance; the contract has no money there',
    });
    expect(differences.map((d) => d.where)).toContain('debit body');
    expect(differences.find((d) => d.where === 'GET /v1/shops')?.message).toMatch(/pageNumber/);
    // The derived profile is a valid one, and the live service agrees with it.
    const profile = loadProfileFile(written);
    expect(profile.records.giftCard?.balance).toBe('funds.remaining');
    expect(profile.giftCardDebit.body).toMatchObject({ amount: 'debit.value', currency: null });
    expect(profile.parameters).toMatchObject({ page: 'pageNumber', limit: 'pageSize' });
    // The vendor documents no paging on these two: the kiosk must not send any (it is refused).
    expect([...profile.parameters.unpaged].sort()).toEqual(['getSavLog', 'searchCustomers']);
    const check = await kioskctl(['--profile', written, 'contract', 'check']);
    expect(check.stdout).toContain('everything the kiosk needs resolves');
    expect(check.code).toBe(0);
    expect(readFileSync(written, 'utf8')).not.toContain('kiosk-all@sandbox.test');
  });

  test('a file that is not an OpenAPI document: a typed refusal', async () => {
    const bogus = join(dir, 'bogus.json');
    writeFileSync(bogus, '{"hello": "world"}');
    const run = await kioskctl(['contract', 'import', bogus]);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stderr.trim())).toMatchObject({
      error: { code: 'CONTRACT_DOCUMENT_INVALID' },
    });
  });
});
