import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ConfiguredCredentials } from '../../../electron/credentials/configured.ts';
import { fixedCredentials } from '../../../electron/kiosk/credential-store.ts';
import { NO_SERVICE_BASE_URL } from '../../../electron/kiosk/service-choice.ts';
import { decideStart, type StartDecision } from '../../../electron/kiosk/start-decision.ts';
import { startSandbox } from '../../../sandbox/index.ts';

/** The start-up decision both hosts share: service, credentials, PIN, and whether to run. */

let dataDir: string;
let decision: StartDecision | undefined;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'kiosk-start-'));
});
afterEach(async () => {
  await decision?.sandbox?.close();
  decision = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

const provisioned: ConfiguredCredentials = {
  source: 'file',
  location: '/etc/commerce-kiosk/credentials.json',
};
const deployed = fixedCredentials(
  { email: 'kiosk@example.com', password: 'secret', origin: 'https://api.example.com' },
  'environment',
);

function decide(options: {
  readonly baseUrl?: string;
  readonly configured?: readonly ConfiguredCredentials[];
  readonly adminPin?: string;
}) {
  let apiCredentialsAsked = 0;
  const decided = decideStart({
    settingsDir: dataDir,
    baseUrl: options.baseUrl,
    startSandbox: () => startSandbox({ port: 0 }),
    findCredentials: async () => options.configured ?? [],
    apiCredentials: () => {
      apiCredentialsAsked += 1;
      return deployed;
    },
    ...(options.adminPin === undefined ? {} : { adminPin: options.adminPin }),
    demoAdminPin: '0000',
  });
  return decided.then((result) => {
    decision = result;
    return { decision: result, apiCredentialsAsked };
  });
}

it('no API and no credentials: the demo on the embedded sandbox, its account and its public PIN', async () => {
  const { decision, apiCredentialsAsked } = await decide({});
  expect(decision).toMatchObject({
    choice: { kind: 'demo' },
    demo: true,
    adminPin: '0000',
    sandboxAvailable: true,
    startServices: true,
  });
  expect(decision.baseUrl).toBe(decision.sandbox?.baseUrl);
  expect((await decision.credentials.store.status()).backend).toBe('sandbox');
  expect(apiCredentialsAsked).toBe(0);
});

it('credentials configured but no API: locked on setup, nothing started, no demo PIN', async () => {
  const { decision, apiCredentialsAsked } = await decide({ configured: [provisioned] });
  expect(decision).toMatchObject({
    choice: { kind: 'setup-required', reason: 'no-base-url' },
    demo: false,
    sandbox: undefined,
    baseUrl: NO_SERVICE_BASE_URL,
    adminPin: undefined,
    sandboxAvailable: false,
    startServices: false,
  });
  expect(apiCredentialsAsked).toBe(0);
});

it("the deployment's API: its credentials, its PIN only, and the sandbox still choosable in setup", async () => {
  const { decision, apiCredentialsAsked } = await decide({
    baseUrl: 'https://api.example.com',
    adminPin: '4821',
  });
  expect(decision).toMatchObject({
    choice: { kind: 'api', baseUrl: 'https://api.example.com' },
    demo: false,
    sandbox: undefined,
    baseUrl: 'https://api.example.com',
    credentials: deployed,
    adminPin: '4821',
    sandboxAvailable: true,
    startServices: true,
  });
  expect(apiCredentialsAsked).toBe(1);
});
