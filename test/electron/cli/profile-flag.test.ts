import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../../electron/cli/kioskctl.ts';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.ts';

/**
 * `--profile` (and KIOSK_API_PROFILE) is a global flag: every command that reads or writes a
 * 'not shown' record goes through it, not only `contract`. Against a service shaped another way,
 * the catalogue's referential lists are paged under its names and a debit is written in its shape.
 */

const alternateProfile = new URL(
  '../../../sandbox/dialects/alternate.profile.json',
  import.meta.url,
).pathname;

let sandbox: RunningSandbox;
let env: Record<string, string>;
const dir = mkdtempSync(join(tmpdir(), 'kiosk-profile-flag-'));

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dialect: 'alternate', control: true });
  const account = sandbox.accounts.find((a) => a.email === 'kiosk-all@sandbox.test')!;
  env = {
    KIOSK_API_BASE_URL: sandbox.baseUrl,
    KIOSK_API_EMAIL: account.email,
    KIOSK_API_PASSWORD: account.password,
  };
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

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

describe('kioskctl --profile against a service shaped another way', { timeout: 30_000 }, () => {
  test('catalog sync: the default profile pages the referentials with names the service refuses; its profile syncs', async () => {
    const wrong = await kioskctl(['catalog', 'sync', '--data-dir', join(dir, 'wrong')]);
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toContain('unknown query parameter `page`');

    const right = await kioskctl([
      'catalog',
      'sync',
      '--data-dir',
      join(dir, 'right'),
      '--profile',
      alternateProfile,
    ]);
    expect(right.stderr).toBe('');
    expect(right.code).toBe(0);
    const outcome = JSON.parse(right.stdout) as { status: { ready: boolean; shops: number } };
    expect(outcome.status.ready).toBe(true);
  });

  test('outbox enqueue --wait through KIOSK_API_PROFILE: the body in the service’s shape, applied once', async () => {
    const run = await kioskctl(
      [
        'outbox',
        'enqueue',
        '--data-dir',
        join(dir, 'outbox'),
        '--card',
        demoGiftCards.active,
        '--amount',
        '2.50',
        '--wait',
        '10',
      ],
      { KIOSK_API_PROFILE: alternateProfile },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // The receipt once committed, then the debit as it ended.
    const lines = run.stdout.trim().split('\n');
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ outcome: { state: 'applied' } });
    const ledger = sandbox.control!.ledger(demoGiftCards.active);
    expect(ledger.map((debit) => debit.amount)).toEqual([2.5]);
  });
});
