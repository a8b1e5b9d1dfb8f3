import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { usagesVerified } from '../../../electron/outbox/usage-evidence.ts';
import { inProcess } from '../cli/support.ts';
import { ALL_SCOPES_ACCOUNT, startTestSandbox, type TestSandbox } from './sandbox-support.ts';
import { tempDataDir } from './support.ts';

/**
 * `kioskctl contract check` with a data directory keeps its verdict on the gift cards' usages
 * there, for the outbox: a service whose usage lists are empty proves nothing (the check passes,
 * the usages "not checked", and the verdict stays NOT verified); one that fills them, read
 * through the profile, is verified.
 */

let sb: TestSandbox;
let data: ReturnType<typeof tempDataDir>;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => {
  data = tempDataDir();
});
afterEach(() => {
  sb.control.setEmptyUsages(false);
  data.cleanup();
});

async function check() {
  const account = sb.sandbox.accounts.find((entry) => entry.email === ALL_SCOPES_ACCOUNT)!;
  return inProcess(['--data-dir', data.dir, 'contract', 'check'], {
    KIOSK_API_BASE_URL: sb.baseUrl,
    KIOSK_API_EMAIL: account.email,
    KIOSK_API_PASSWORD: account.password,
  });
}

it('kioskctl contract check records whether the usages can prove "never applied"', async () => {
  sb.control.setEmptyUsages(true);
  const empty = await check();
  // No example is not a failure: the check passes, and says what it could not check.
  expect(empty.code).toBe(0);
  expect(empty.stdout).toMatch(
    /not checked: the service returned no example of [^\n]*giftCardUsage\.reference/,
  );
  expect(empty.stdout).toMatch(/giftCardUsage\.reference \*?\s+not-checked/);
  expect(empty.stdout).toMatch(
    /usages: NOT verified \(the card read had no usages.*held for a person/,
  );
  const outbox = new Outbox({ db: data.open() });
  expect(usagesVerified(outbox.store, outbox.profile)).toBe(false);

  sb.control.setEmptyUsages(false);
  const filled = await check();
  expect(filled.code).toBe(0);
  expect(filled.stdout).toMatch(/usages: verified/);
  expect(usagesVerified(outbox.store, outbox.profile)).toBe(true);
});
