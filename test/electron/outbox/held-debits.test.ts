import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExchangeEvent } from '../../../electron/api/invoke.ts';
import type { OutboxEvent } from '../../../electron/outbox/events.ts';
import { heldReasonOf, type OutboxDebit } from '../../../electron/outbox/index.ts';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { OutboxSender } from '../../../electron/outbox/sender.ts';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import { shopIds } from '../../../sandbox/data/referentials.ts';
import type { DialectName } from '../../../sandbox/index.ts';
import { scopes } from '../../../shared/api/scopes.ts';
import { defaultProfile, IntegrationProfile } from '../../../shared/profile/index.ts';
import { seededRandom } from '../../support/random.ts';
import { ALL_SCOPES_ACCOUNT, startTestSandbox, type TestSandbox } from './sandbox-support.ts';
import { tempDataDir } from './support.ts';

/**
 * A debit the service refuses for its shape (400) or the account's scopes (403) is held, not
 * failed: pending, the sender paused for an administrator. Once the profile or the account is
 * fixed and the sender resumed, it is rebuilt (a changed body under a new Idempotency-Key, the old
 * one kept) and applied exactly once, by the real sandbox's ledger.
 */

const NO_WRITE_ACCOUNT = 'kiosk-no-gift-card-write@sandbox.test';

/** The default dialect refuses this body: the amount under `value`, an unknown field. */
const wrongProfile = IntegrationProfile.parse({
  ...defaultProfile,
  name: 'wrong: the amount under value',
  giftCardDebit: { body: { ...defaultProfile.giftCardDebit.body, amount: 'value' } },
});

const alternateProfile = IntegrationProfile.parse(
  JSON.parse(
    readFileSync(
      new URL('../../../sandbox/dialects/alternate.profile.json', import.meta.url),
      'utf8',
    ),
  ),
);

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const entry of opened.splice(0).reverse()) await entry.close();
});

interface Rig {
  readonly sb: TestSandbox;
  readonly outbox: Outbox;
  readonly sender: OutboxSender;
  readonly events: OutboxEvent[];
  readonly exchanges: string[];
}

async function rig(
  options: { dialect?: DialectName; email?: string; profile?: IntegrationProfile } = {},
): Promise<Rig> {
  const sb = await startTestSandbox(1, options.dialect ? { dialect: options.dialect } : {});
  const data = tempDataDir();
  const outbox = new Outbox({
    db: data.open(),
    connectivity: () => 'online',
    profile: options.profile ?? defaultProfile,
  });
  const events: OutboxEvent[] = [];
  outbox.events.on('change', (event) => events.push(event));
  const exchanges: string[] = [];
  const client = sb.client({
    email: options.email ?? ALL_SCOPES_ACCOUNT,
    onExchange: (event: ExchangeEvent) => {
      if (event.path.startsWith('/v1/gift-cards/'))
        exchanges.push(`${event.method} ${event.status ?? event.errorKind}`);
    },
  });
  const sender = new OutboxSender({
    outbox,
    gateway: sb.gateway(client, () => outbox.profile),
    random: seededRandom(3),
    leaseTtlMs: 3_000,
    idlePollMs: 50,
    retry: {
      backoff: { baseMs: 1, capMs: 5 },
      retryAfter: { capMs: 5, jitterMs: 1 },
      budget: { capacity: 100, refillPerSecond: 100 },
    },
  });
  opened.push({
    close: async () => {
      await sender.stop();
      data.cleanup();
      await sb.close();
    },
  });
  return { sb, outbox, sender, events, exchanges };
}

function pauseOf(events: readonly OutboxEvent[]) {
  const paused = events.filter((event) => event.type === 'sender-paused');
  expect(paused).toHaveLength(1);
  return paused[0]!;
}

/** Held: pending, never failed, paused with this code, nothing in the service's ledger. */
async function expectHeld(r: Rig, debit: OutboxDebit, code: string): Promise<OutboxDebit> {
  const report = await r.sender.drain({ untilEmpty: true, timeoutMs: 10_000 });
  expect(report.result).toBe('paused');
  const row = r.outbox.get(debit.id);
  expect(row).toMatchObject({ state: 'pending', lastErrorCode: code });
  expect(heldReasonOf(row)).toMatchObject({ code });
  expect(r.outbox.list({ state: 'failed' })).toEqual([]);
  expect(r.sender.status.paused).toMatchObject({ code });
  expect(r.sb.control.ledger()).toEqual([]);
  return row;
}

describe('a debit refused for its shape (400)', () => {
  it('is held pending with the sender paused; the fixed profile and a resume apply it exactly once under a new key, the old one kept', async () => {
    const r = await rig({ profile: wrongProfile });
    const { debit } = r.outbox.enqueue({
      giftCardId: demoGiftCards.active,
      amount: 12.5,
      reference: 'sale 42',
    });
    expect(JSON.parse(debit.requestBody)).toMatchObject({ value: 12.5, currency: 'EUR' });

    const held = await expectHeld(r, debit, 'DEBIT_REQUEST_REFUSED');
    const event = pauseOf(r.events);
    expect(event).toMatchObject({ reason: 'request-refused', needsAdministrator: true });
    // What the service said, and who must act.
    expect(event.type === 'sender-paused' && event.message).toMatch(
      /\((400|refused before sending): .*\); an administrator must fix the integration profile/,
    );
    expect(held.idempotencyKey).toBe(debit.idempotencyKey);

    // Resumed with nothing fixed: the same bytes, the same key, held again.
    r.sender.resume();
    await expectHeld(r, debit, 'DEBIT_REQUEST_REFUSED');
    expect(r.outbox.keyHistory(debit.id)).toHaveLength(1);

    r.outbox.useProfile(defaultProfile);
    r.sender.resume();
    const report = await r.sender.drain({ untilEmpty: true, timeoutMs: 10_000 });
    expect(report.result).toBe('empty');
    const applied = r.outbox.get(debit.id);
    expect(applied).toMatchObject({ state: 'applied', reference: debit.reference });
    expect(applied.idempotencyKey).not.toBe(debit.idempotencyKey);
    expect(JSON.parse(applied.requestBody)).toEqual({
      amount: 12.5,
      currency: 'EUR',
      reference: debit.reference,
    });

    const ledger = r.sb.control.ledger();
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      idempotencyKey: applied.idempotencyKey,
      reference: debit.reference,
      amount: 12.5,
    });
    const history = r.outbox.keyHistory(debit.id);
    expect(history.map((key) => key.idempotencyKey)).toEqual([
      debit.idempotencyKey,
      applied.idempotencyKey,
    ]);
    expect(history[0]).toMatchObject({ requestBody: debit.requestBody });
    expect(history[0]!.replacedAt).not.toBeNull();
    expect(history[1]!.replacedAt).toBeNull();
    // A 400 applied nothing: no usages were read before the resend, one debit went through.
    expect(r.exchanges.filter((exchange) => exchange.startsWith('GET'))).toEqual([]);
    expect(r.exchanges.filter((exchange) => exchange === 'PUT 200')).toHaveLength(1);
  });

  it('a debit behind the held one, never sent, is rebuilt under its own key', async () => {
    const r = await rig({ profile: wrongProfile });
    const first = r.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 3 }).debit;
    const second = r.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 4 }).debit;
    await expectHeld(r, first, 'DEBIT_REQUEST_REFUSED');
    expect(r.outbox.get(second.id).attempts).toBe(0);

    r.outbox.useProfile(defaultProfile);
    r.sender.resume();
    expect((await r.sender.drain({ untilEmpty: true, timeoutMs: 10_000 })).result).toBe('empty');
    const settled = r.outbox.get(second.id);
    expect(settled).toMatchObject({ state: 'applied', idempotencyKey: second.idempotencyKey });
    expect(r.outbox.keyHistory(second.id)).toHaveLength(1);
    expect(r.outbox.keyHistory(first.id)).toHaveLength(2);
    expect(r.sb.control.ledger().map((entry) => entry.amount)).toEqual([3, 4]);
  });

  it("after a 503 that may have reached the service, the service's 400 to the same key and body is its answer to that key: rebuilt under a new key, applied once", async () => {
    // Accepted for a shop the fixed profile no longer sends: the body changes on resume.
    const r = await rig();
    const shopId = shopIds.paris;
    r.outbox.setShopId(shopId);
    // The first attempt gets a 503, the second a refusal of the request's shape.
    r.sb.control.addFault({ kind: 'unavailable', route: 'debitGiftCard', count: 1 });
    r.sb.control.addFault({ kind: 'invalid-request', route: 'debitGiftCard', count: 1 });
    const { debit } = r.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 5 });
    expect(JSON.parse(debit.requestBody)).toMatchObject({ shopId });
    const held = await expectHeld(r, debit, 'DEBIT_REQUEST_REFUSED');
    // Had the 503's attempt applied it, the service would have replayed that to the same key
    // and bytes (the spec's idempotency rule 1), not refused them: positive evidence.
    expect(held).toMatchObject({ mayHaveReachedAt: null, notApplied: { evidence: 'answer' } });
    expect(r.exchanges).toEqual(['PUT 503', 'PUT 400']);

    const withoutShop = IntegrationProfile.parse({
      ...defaultProfile,
      giftCardDebit: { body: { ...defaultProfile.giftCardDebit.body, shopId: null } },
    });
    r.outbox.useProfile(withoutShop);
    r.sender.resume();
    expect(r.outbox.get(debit.id).olderKeyMayHaveReached).toBe(false);
    expect((await r.sender.drain({ untilEmpty: true, timeoutMs: 10_000 })).result).toBe('empty');
    const applied = r.outbox.get(debit.id);
    expect(applied.state).toBe('applied');
    expect(applied.idempotencyKey).not.toBe(debit.idempotencyKey);
    expect(JSON.parse(applied.requestBody)).not.toHaveProperty('shopId');
    expect(r.exchanges).toEqual(['PUT 503', 'PUT 400', 'PUT 200']);
    expect(r.sb.control.ledger().map((entry) => entry.idempotencyKey)).toEqual([
      applied.idempotencyKey,
    ]);
  });

  it('a reply lost after the service applied it, then the profile changed: no new key is minted, the debit goes on under its own key, applied once', async () => {
    const r = await rig();
    r.outbox.setShopId(shopIds.paris);
    r.sb.control.addFault({ kind: 'commit-then-reset', route: 'debitGiftCard', count: 1 });
    // Then the service is unavailable a while: the debit waits for its retry, pending.
    r.sb.control.addFault({ kind: 'unavailable', route: 'debitGiftCard', count: 1_000 });
    const { debit } = r.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 5 });
    r.sender.start();
    await vi.waitFor(() => expect(r.sb.control.ledger()).toHaveLength(1));
    await vi.waitFor(() => expect(r.outbox.get(debit.id).mayHaveReachedAt).not.toBeNull());
    await r.sender.stop();
    r.sb.control.clearFaults();

    const withoutShop = IntegrationProfile.parse({
      ...defaultProfile,
      giftCardDebit: { body: { ...defaultProfile.giftCardDebit.body, shopId: null } },
    });
    // Edited twice: each time the body would change under a key that may have applied it.
    for (const [profile, withheld] of [
      [withoutShop, [debit.id]],
      [defaultProfile, []],
      [withoutShop, [debit.id]],
    ] as const) {
      r.outbox.useProfile(profile);
      expect(r.outbox.rebuildBodies()).toMatchObject({ rebuilt: 0, newKeys: 0, withheld });
    }
    expect((await r.sender.drain({ untilEmpty: true, timeoutMs: 10_000 })).result).toBe('empty');
    expect(r.outbox.get(debit.id)).toMatchObject({
      state: 'applied',
      idempotencyKey: debit.idempotencyKey,
      requestBody: debit.requestBody,
    });
    expect(r.outbox.keyHistory(debit.id)).toHaveLength(1);
    expect(r.sb.control.ledger().map((entry) => entry.idempotencyKey)).toEqual([
      debit.idempotencyKey,
    ]);
  });
});

describe('a debit refused for the account (403)', () => {
  it('is held pending; once the scope is granted and the sender resumed, applied once under its own key', async () => {
    const r = await rig({ email: NO_WRITE_ACCOUNT });
    const { debit } = r.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 2 });
    await expectHeld(r, debit, 'DEBIT_SCOPE_MISSING');
    const event = pauseOf(r.events);
    expect(event).toMatchObject({ reason: 'scope-missing', needsAdministrator: true });
    expect(event.type === 'sender-paused' && event.message).toMatch(
      /403: .*missing scopes: gift-cards:write.*administrator must grant the scope/,
    );

    r.sb.control.setScopes(NO_WRITE_ACCOUNT, scopes);
    r.sender.resume();
    expect((await r.sender.drain({ untilEmpty: true, timeoutMs: 10_000 })).result).toBe('empty');
    // The body did not change: the same key, which the service never applied before.
    expect(r.outbox.get(debit.id)).toMatchObject({
      state: 'applied',
      idempotencyKey: debit.idempotencyKey,
    });
    expect(r.outbox.keyHistory(debit.id)).toHaveLength(1);
    expect(r.sb.control.ledger().map((entry) => entry.idempotencyKey)).toEqual([
      debit.idempotencyKey,
    ]);
  });
});

describe('against the alternate dialect', () => {
  it('with the default profile the debit is held; with its own profile and a resume, applied exactly once', async () => {
    const r = await rig({ dialect: 'alternate' });
    const { debit } = r.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 8 });
    await expectHeld(r, debit, 'DEBIT_REQUEST_REFUSED');

    r.outbox.useProfile(alternateProfile);
    r.sender.resume();
    const report = await r.sender.drain({ untilEmpty: true, timeoutMs: 10_000 });
    expect(report.result, r.outbox.get(debit.id).lastErrorMessage ?? '').toBe('empty');
    const applied = r.outbox.get(debit.id);
    expect(applied.state).toBe('applied');
    expect(JSON.parse(applied.requestBody)).toEqual({
      debit: { value: 8 },
      memo: debit.reference,
    });
    const ledger = r.sb.control.ledger();
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ idempotencyKey: applied.idempotencyKey, amount: 8 });
    // The receipt read through the alternate profile: its balance is `remaining` there.
    expect(applied.reply).toMatchObject({
      kind: 'receipt',
      receipt: { balance: ledger[0]!.balanceAfter },
    });
    expect(applied.newBalance).toBe(ledger[0]!.balanceAfter);
  });
});
