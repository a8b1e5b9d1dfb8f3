import type { Page } from '@playwright/test';
import { demoGiftCards } from '../../sandbox/data/demo.ts';
import { saveScreen } from './support/evidence.ts';
import { findCard, keypad } from './support/gift-card.ts';
import type { RunningKiosk } from './support/kiosk-host.ts';
import { expect, openKiosk, test } from './support/kiosk-test.ts';
import type { LinkCut } from './support/link.ts';
import { ledger } from './support/sandbox-control.ts';

/**
 * Issue 35 (0): the offline checks do not wait for the kiosk to know it is offline. The link is
 * cut at the TCP level a second before Débiter, so the status still says online when staff press
 * it: a debit over the balance read just before is refused at once; one over the offline
 * per-debit cap is refused when its wait ends, nothing of it having left the kiosk: it is sent on
 * a connection of its own, never the keep-alive one the card read left open (which, with SYNs
 * dropped, would take its bytes into a black hole). Neither reaches the service.
 */
const PER_DEBIT_CAP = 50;
const cuts: readonly { how: LinkCut; name: string }[] = [
  { how: 'refused', name: 'connection refused' },
  { how: 'dropped', name: 'SYNs dropped, open connections black-holed' },
];

for (const cut of cuts) {
  test.describe(`the link cut a second before Débiter (${cut.name})`, () => {
    test.use({ kioskOptions: { link: true, limits: { maxOfflineDebitAmount: PER_DEBIT_CAP } } });

    /** The card read online, then the link cut, and a second for staff to press Débiter. */
    async function readThenCut(page: Page, kiosk: RunningKiosk) {
      await openKiosk(page, kiosk);
      await findCard(page, demoGiftCards.active);
      await expect(page.getByTestId('gift-card-balance')).toHaveText('€114.50');
      await kiosk.link!.cut(cut.how);
      await page.waitForTimeout(1_000);
    }

    /** The link back, the outbox drained: nothing of these debits at the service. */
    async function expectLedgerUnchanged(page: Page, kiosk: RunningKiosk) {
      await kiosk.link!.restore();
      await page.getByRole('button', { name: 'Check connection' }).click();
      await expect(page.getByTestId('connectivity')).toHaveAttribute('data-state', 'online');
      await expect(page.getByTestId('outbox-indicator')).toHaveText('No debit waiting', {
        timeout: 40_000,
      });
      // Longer than the sender's first retry: a row left to send would have gone by now.
      await page.waitForTimeout(2_000);
      expect(await ledger(kiosk.sandboxUrl, demoGiftCards.active)).toEqual([]);
      await findCard(page, demoGiftCards.active);
      await expect(page.getByTestId('gift-card-balance')).toHaveText('€114.50');
    }

    test('over the balance read just before: not offered, the status still online, never at the service', async ({
      page,
      kiosk,
    }) => {
      test.setTimeout(60_000);
      await readThenCut(page, kiosk);
      await keypad(page, '120');
      // Nothing was sent since the cut: the kiosk still believes it is online.
      await expect(page.getByTestId('connectivity')).toHaveAttribute('data-state', 'online');
      // Issue 37 (5): over the balance read, Débiter is not offered (main would refuse it at
      // once: test/electron/outbox/offline-cards.test.ts).
      await expect(page.getByRole('button', { name: 'Debit €120.00' })).toBeDisabled();
      await expect(page.getByTestId('debit-over-balance')).toContainText('€114.50');
      await expect(page.getByTestId('debit-outcome')).toHaveCount(0);
      expect(kiosk.services.parts.outbox.list({})).toEqual([]);
      await expectLedgerUnchanged(page, kiosk);
    });

    test('over the offline per-debit cap, within the balance: not taken when the wait ends, never applied at the service', async ({
      page,
      kiosk,
    }, testInfo) => {
      test.setTimeout(90_000);
      await readThenCut(page, kiosk);
      await keypad(page, '60');
      await expect(page.getByTestId('connectivity')).toHaveAttribute('data-state', 'online');
      await page.getByRole('button', { name: 'Debit €60.00' }).click();
      const outbox = kiosk.services.parts.outbox;
      // Nothing of it left the kiosk: over the per-debit cap it could never be stored offline, so
      // it goes out on a connection of its own, never the keep-alive one the card was read on.
      // Refused, that connection fails at once; with SYNs dropped it never opens (connect
      // timeout), where the black-holed keep-alive connection would have taken its bytes and left
      // it held for a person. Either way: withdrawn, a plain refusal, no held row.
      const refusal = page
        .getByRole('alert')
        .filter({ hasText: 'This debit is over the kiosk’s offline limits: it was not taken.' });
      await expect(refusal).toContainText(
        `The limit is the largest debit accepted offline: €${PER_DEBIT_CAP}.00.`,
        { timeout: 15_000 },
      );
      await expect(page.getByTestId('debit-outcome')).toHaveCount(0);
      await expect(page.getByTestId('debit-may-be-stored')).toHaveCount(0);
      await saveScreen(page, testInfo, `gift-card-link-cut-${cut.how}-over-cap`);
      expect(
        outbox
          .list({})
          .map((debit) => [debit.amount, debit.state, debit.lastErrorCode, debit.outcomeUnknown]),
      ).toEqual([[60, 'cancelled', 'OUTBOX_LIMIT_EXCEEDED', null]]);
      await expectLedgerUnchanged(page, kiosk);
      expect(outbox.summary()).toMatchObject({ outcomeUnknown: 0 });
    });
  });
}
