/**
 * What an integrator's test of their host does, with the installed package only: the kiosk
 * integration on a sandbox, the shipped preload as the page would run it, shops listed and a gift
 * card debited over IPC, then everything closed. It prints one JSON line of what it saw; the
 * process must then end by itself (nothing left open).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileFunction } from 'node:vm';
import { createKioskIntegration, fixedCredentials } from 'commerce-kiosk';
import { kioskPreloadPath } from 'commerce-kiosk/preload';
import { type KioskApi, kioskRendererDir } from 'commerce-kiosk/renderer';
import { demoGiftCards, startSandbox } from 'commerce-kiosk/sandbox';
import { type FakeElectron, fakeElectron } from './fake-electron.ts';

/** Runs the bundled preload with a fake contextBridge and ipcRenderer; returns `window.kiosk`. */
async function runPreload(electron: FakeElectron, pageUrl: string): Promise<KioskApi> {
  let exposed: KioskApi | undefined;
  const rendererSide = {
    contextBridge: {
      exposeInMainWorld: (name: string, api: KioskApi) => {
        if (name === 'kiosk') exposed = api;
      },
    },
    ipcRenderer: {
      invoke: async (channel: string, payload: unknown) => {
        const handler = electron.ipcHandlers.get(channel);
        if (handler === undefined) throw new Error(`no handler for ${channel}`);
        const sender = { id: electron.kioskContentsId ?? -1 };
        return handler({ sender, senderFrame: { url: pageUrl, parent: null } }, payload);
      },
      on: () => undefined,
      removeListener: () => undefined,
    },
  };
  const source = await readFile(kioskPreloadPath(), 'utf8');
  const module = { exports: {} };
  const preload = compileFunction(source, ['require', 'module', 'exports']);
  preload((id: string) => (id === 'electron' ? rendererSide : undefined), module, module.exports);
  if (exposed === undefined) throw new Error('the preload exposed no window.kiosk');
  return exposed;
}

const sandbox = await startSandbox({ port: 0, control: true });
const account = sandbox.accounts[0];
if (account === undefined) throw new Error('the sandbox has no account');
const dataDir = await mkdtemp(join(tmpdir(), 'consumer-kiosk-'));
const electron = fakeElectron();

const kiosk = await createKioskIntegration({
  electron,
  dataDir,
  baseUrl: sandbox.baseUrl,
  vault: fixedCredentials({ ...account, origin: sandbox.baseUrl }, 'environment'),
  rendererDir: kioskRendererDir(),
  preloadPath: kioskPreloadPath(),
});
if (kiosk.status !== 'running') throw new Error(`the kiosk did not start: ${kiosk.status}`);

const [pageUrl, pageStatus] = [...electron.loaded][0] ?? ['', 0];
const window = await runPreload(electron, pageUrl);
const shops = await window.listShops({});
const sale = {
  requestId: randomUUID(),
  giftCardId: demoGiftCards.active,
  amount: 2.5,
  policy: 'prefer_online',
  waitMs: 10_000,
} as const;
const debit = await window.debitGiftCard(sale);
// The same sale confirmed again (a lost reply): the same debit, never a second one.
const again = await window.debitGiftCard(sale);
const ledger = sandbox.control?.ledger(demoGiftCards.active) ?? [];

await kiosk.close();
await sandbox.close();
await rm(dataDir, { recursive: true, force: true });

process.stdout.write(
  `${JSON.stringify({
    page: { url: pageUrl, status: pageStatus },
    shops: shops.ok ? shops.value.shops.length : shops.error,
    debit: debit.ok
      ? { state: debit.value.debit.state, settled: debit.value.settled }
      : debit.error,
    again: again.ok ? { replayed: again.value.replayed, id: again.value.debit.id } : again.error,
    debitId: debit.ok ? debit.value.debit.id : null,
    ledger: ledger.map((entry) => entry.amount),
  })}\n`,
);
