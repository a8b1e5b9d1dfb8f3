import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { IpcResult, ReplyOf, RequestOf } from '../../../../shared/ipc/index.ts';
import { defaultProfile } from '../../../../shared/profile/index.ts';
import { demoGiftCardBalances, demoGiftCards } from '../../../../sandbox/data/demo.ts';
import { KIOSK_PAGE, type KioskFixture, startKioskFixture } from '../support.ts';

/**
 * Staff type or scan what is printed on the card; the integration profile's scan rule makes it
 * the service's id. Here the printed code is `GC-` and the id's end, the id `gift_card_` and it.
 */

let fixture: KioskFixture;
let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'card-code-'));
  const profileFile = join(folder, 'profile.json');
  await writeFile(
    profileFile,
    JSON.stringify({
      ...defaultProfile,
      scan: { pattern: '^GC-(?<id>[0-9a-f-]{36})$', prefix: 'gift_card_' },
    }),
  );
  fixture = await startKioskFixture({ services: { profileFile } });
}, 60_000);
afterAll(async () => {
  await fixture?.close();
  await rm(folder, { recursive: true, force: true });
});

const lookup = async (request: RequestOf<'getGiftCard'>) =>
  (await fixture.router.handle('kiosk:getGiftCard', request, KIOSK_PAGE)) as IpcResult<
    ReplyOf<'getGiftCard'>
  >;

it('a scanned code becomes the service id through the profile; an id from a credit is used as is', async () => {
  const code = `GC-${demoGiftCards.active.replace(/^gift_card_/u, '')}`;
  const scanned = await lookup({ code: `${code}\r\n` });
  expect(scanned).toMatchObject({
    ok: true,
    value: { id: demoGiftCards.active, balance: demoGiftCardBalances.active },
  });
  expect(await lookup({ giftCardId: demoGiftCards.active })).toMatchObject({
    ok: true,
    value: { id: demoGiftCards.active },
  });
});

it('a code the scan rule does not recognise is refused with its own code, the service not asked', async () => {
  const before = fixture.requestCount();
  expect(await lookup({ code: demoGiftCards.active })).toMatchObject({
    ok: false,
    error: { code: 'GIFT_CARD_CODE_UNRECOGNISED' },
  });
  expect(fixture.requestCount()).toBe(before);
});
