import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageName, RequestOf } from '../../../../shared/ipc/index.ts';
import { demoGiftCards, demoSales } from '../../../../sandbox/data/demo.ts';
import { type KioskFixture, replyTo, startKioskFixture } from '../support.ts';

/**
 * A sale's credits, read through the profile on both service shapes: the gift card it was paid
 * with is named (so staff can "Use this card"), the credit note is listed but names no card.
 */

const alternateProfile = new URL(
  '../../../../sandbox/dialects/alternate.profile.json',
  import.meta.url,
).pathname;

describe.each([
  ['the sandbox', {}],
  [
    'a service shaped another way, with its profile',
    { dialect: 'alternate', services: { profileFile: alternateProfile } },
  ],
] as const)('%s', (_name, options) => {
  let fixture: KioskFixture;
  beforeAll(async () => {
    fixture = await startKioskFixture(options);
  }, 60_000);
  afterAll(() => fixture?.close());

  const call = <N extends MessageName>(name: N, request: RequestOf<N>) =>
    replyTo(fixture, name, request);

  it('names the gift card a sale was paid with, and no card for its credit note', async () => {
    const sale = await call('getSale', { saleId: demoSales.withCredits });
    expect(sale.credits).toHaveLength(2);
    const named = (sale.credits ?? []).map((credit) => credit.giftCardId);
    expect(named.filter((id) => id !== null)).toEqual([demoGiftCards.active]);
    for (const credit of sale.credits ?? []) expect(credit.amount).toBeGreaterThan(0);
  });
});
