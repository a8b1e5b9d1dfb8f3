import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { type BrowserHost, startBrowserHost } from '../../../electron/host/browser-host.ts';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import type { KioskApi } from '../../../shared/ipc/contract.ts';
import type { OutboxChanged } from '../../../shared/ipc/events.ts';
import type { DebitView } from '../../../shared/ipc/gift-cards.ts';
import { LOOPBACK_IPC_PATH } from '../../../shared/ipc/loopback.ts';
import { debitBodyOf, defaultProfile } from '../../../shared/profile/index.ts';
import { type KioskFixture, startKioskFixture } from '../kiosk/support.ts';
import { loadLoopbackClient, pageFetch, streamWatchingFetch } from './loopback-client.ts';
import { type RendererFixture, makeRendererFixture } from './renderer-fixture.ts';

/**
 * The gift-card screen's store (renderer/stores/gift-card-store.ts) against the real main
 * process: the kiosk services behind the loopback browser host, the renderer's loopback client,
 * the sandbox. The store belongs to the web TypeScript project, so it is loaded by a computed path
 * and typed here by what the test reads of it.
 */
interface GiftCardScreen {
  getState(): {
    readonly debit: DebitView | null;
    readonly confirmation: { readonly requestId: string } | null;
    openCard(giftCardId: string): Promise<void>;
    setAmount(amount: string): void;
    submitDebit(): Promise<void>;
    applyEvent(event: OutboxChanged): void;
    dispose(): void;
  };
}
type CreateGiftCardStore = (
  api: KioskApi,
  connectivity: () => null,
  options: {
    storage: { load(): []; save(): void; remove(): void };
    recheckDelaysMs: readonly number[];
  },
) => GiftCardScreen;

/** The status bar's and the pending list's store (renderer/stores/outbox-store.ts). */
interface OutboxScreen {
  getState(): {
    readonly open: readonly DebitView[];
    readonly attention: readonly DebitView[];
    refresh(): Promise<void>;
    applyEvent(event: OutboxChanged): void;
  };
}
type CreateOutboxStore = (api: KioskApi) => OutboxScreen;

const storeModule = new URL('../../../renderer/stores/gift-card-store.ts', import.meta.url).href;
const outboxStoreModule = new URL('../../../renderer/stores/outbox-store.ts', import.meta.url).href;
const TOKEN = 'test-token-debit-outcome-channel-0123456789';

let fixture: KioskFixture;
let renderer: RendererFixture;
let host: BrowserHost;

beforeAll(async () => {
  fixture = await startKioskFixture({ services: { host: 'browser' } });
  renderer = await makeRendererFixture();
  host = await startBrowserHost({
    services: fixture.services,
    rendererDir: renderer.rendererDir,
    token: TOKEN,
  });
}, 60_000);

afterAll(async () => {
  await host?.close();
  await fixture?.close();
  await renderer?.close();
});

/**
 * One kiosk screen: its own loopback client and event stream, its gift-card store fed by that
 * stream, and main's replies to its debits held back until the test lets them through.
 */
async function openScreen() {
  const createLoopbackClient = await loadLoopbackClient();
  const { createGiftCardStore } = (await import(storeModule)) as {
    createGiftCardStore: CreateGiftCardStore;
  };
  const { createOutboxStore } = (await import(outboxStoreModule)) as {
    createOutboxStore: CreateOutboxStore;
  };
  const watched = streamWatchingFetch(pageFetch(host.origin));
  const heldReplies: (() => void)[] = [];
  const calls: string[] = [];
  const kiosk = createLoopbackClient({
    origin: host.origin,
    token: TOKEN,
    fetch: async (input, init) => {
      const { pathname } = new URL(String(input));
      calls.push(pathname.slice(LOOPBACK_IPC_PATH.length));
      const response = await watched.fetch(input, init);
      if (pathname === `${LOOPBACK_IPC_PATH}debitGiftCard`) {
        await new Promise<void>((resolve) => heldReplies.push(resolve));
      }
      return response;
    },
  });
  const store = createGiftCardStore(kiosk, () => null, {
    storage: { load: () => [], save: () => {}, remove: () => {} },
    // Asking main again is not what this test is about: only the events may bring the outcome.
    recheckDelaysMs: [3_600_000],
  });
  /** The request id of every debit event this screen received, in order. */
  const seen: string[] = [];
  const outbox = createOutboxStore(kiosk);
  await outbox.getState().refresh();
  const off = kiosk.onOutboxChanged((event) => {
    if ('debit' in event) seen.push(event.debit.requestId ?? '');
    store.getState().applyEvent(event);
    outbox.getState().applyEvent(event);
  });
  await watched.streamOpen;
  return {
    kiosk,
    store,
    outbox,
    seen,
    heldReplies,
    calls,
    close: () => {
      off();
      store.getState().dispose();
    },
  };
}

it("two screens' debits whose events interleave: each screen shows its own outcome, from the events alone", async () => {
  const { sender, client } = fixture.services.parts;
  const first = await openScreen();
  const second = await openScreen();
  try {
    await first.store.getState().openCard(demoGiftCards.active);
    await second.store.getState().openCard(demoGiftCards.lowBalance);
    first.store.getState().setAmount('3');
    second.store.getState().setAmount('4');

    // The sender is not running yet: both debits are stored before either is sent, so each
    // screen's events come between the other's.
    const firstSubmitted = first.store.getState().submitDebit();
    const firstId = first.store.getState().confirmation!.requestId;
    await vi.waitFor(() => expect(second.seen).toContain(firstId));
    const secondSubmitted = second.store.getState().submitDebit();
    const secondId = second.store.getState().confirmation!.requestId;
    await vi.waitFor(() => expect(first.seen).toContain(secondId));

    // Another till spends part of the second card meanwhile: the service refuses that debit,
    // so the two screens have different outcomes to show.
    await client.debitGiftCard({
      params: { giftCardId: demoGiftCards.lowBalance },
      headers: { 'Idempotency-Key': randomUUID() },
      body: debitBodyOf(defaultProfile, {
        amount: 1,
        currency: 'EUR',
        reference: 'another-till',
        shopId: null,
      }) as never,
    });
    // Both counter waits over (main replied, the relay holds the replies): the refusal comes after
    // the customer left, so it needs attention instead of being the screen's on-the-spot outcome.
    await vi.waitFor(
      () => expect([first.heldReplies.length, second.heldReplies.length]).toEqual([1, 1]),
      {
        timeout: 15_000,
      },
    );
    sender.start();

    await vi.waitFor(
      () => {
        expect(first.store.getState().debit?.state).toBe('applied');
        expect(second.store.getState().debit?.state).toBe('refused');
      },
      { timeout: 15_000 },
    );
    expect(first.store.getState().debit).toMatchObject({
      requestId: firstId,
      giftCardId: demoGiftCards.active,
      amount: 3,
      state: 'applied',
    });
    expect(second.store.getState().debit).toMatchObject({
      requestId: secondId,
      giftCardId: demoGiftCards.lowBalance,
      amount: 4,
      state: 'refused',
      lastError: { code: 'INSUFFICIENT_BALANCE' },
    });
    // Each stream carried both debits' events, interleaved; no reply had reached either screen.
    for (const { seen } of [first, second]) {
      const own = seen.flatMap((id, index) => (id === firstId ? [index] : []));
      expect(seen.slice(own[0], own.at(-1)), 'interleaved').toContain(secondId);
    }
    expect([first.heldReplies.length, second.heldReplies.length]).toEqual([1, 1]);

    // The replies, late and crosswise, change nothing on either screen.
    second.heldReplies[0]!();
    await secondSubmitted;
    first.heldReplies[0]!();
    await firstSubmitted;
    expect(first.store.getState().debit).toMatchObject({ requestId: firstId, state: 'applied' });
    expect(second.store.getState().debit).toMatchObject({ requestId: secondId, state: 'refused' });

    // The pending list and the alert followed the events' own rows: the lists were read once, at
    // the start (two calls), and the events cost reads of the summary alone.
    for (const { calls } of [first, second]) {
      expect(calls.filter((call) => call === 'listDebits')).toHaveLength(2);
      expect(calls.filter((call) => call === 'getOutboxSummary').length).toBeGreaterThan(1);
    }
    const [open, attention] = await Promise.all([
      first.kiosk.listDebits({ view: 'open', limit: 200 }),
      first.kiosk.listDebits({ view: 'attention', limit: 200 }),
    ]);
    expect(open).toMatchObject({ ok: true, value: { debits: [] } });
    expect(attention).toMatchObject({
      ok: true,
      value: { debits: [{ requestId: secondId, maskedNumber: expect.any(String) }] },
    });
    for (const screen of [first, second]) {
      expect(screen.outbox.getState().open).toEqual(open.ok && open.value.debits);
      expect(screen.outbox.getState().attention).toEqual(attention.ok && attention.value.debits);
    }
  } finally {
    first.close();
    second.close();
    await sender.stop();
  }
}, 60_000);
