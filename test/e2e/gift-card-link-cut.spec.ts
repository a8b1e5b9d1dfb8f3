import { demoGiftCards } from '../../sandbox/data/demo.ts';
import { saveScreen } from './support/evidence.ts';
import { findCard, keypad } from './support/gift-card.ts';
import { expect, openKiosk, test } from './support/kiosk-test.ts';
import type { LinkCut } from './support/link.ts';
import { ledger } from './support/sandbox-control.ts';

/**
 * Issue 35 (0): the offline checks do not wait for the kiosk to know it is offline. The link is
 * cut at the TCP level a second before Débiter, so the status still says online when staff press
 * it: a debit over the balance read just before is refused at once, one over the offline
 * per-debit cap when its wait ends without an answer; neither reaches the service, even once the
 * link is back and the outbox has drained.
 */
const PER_DEBIT_CAP = 50;
const cuts: readonly { how: LinkCut; name: string }[] = [
  { how: 'refused', name: 'connection refused' },
  { how: 'dropped', name: 'SYNs dropped, open connections black-holed' },
];

for (const cut of cuts) {
  test.describe(`the link cut a second before Débiter (${cut.name})`, () => {
    test.use({ kioskOptions: { link: true, limits: { maxOfflineDebitAmount: PER_DEBIT_CAP } } });

    test('over the balance read just before, or over the offline per-debit cap: refused on screen, never at the service', async ({
      page,
      kiosk,
    }, testInfo) => {
      test.setTimeout(60_000);
      const card = demoGiftCards.active;
      const link = kiosk.link!;
      await openKiosk(page, kiosk);
      await findCard(page, card);
      await expect(page.getByTestId('gift-card-balance')).toHaveText('€114.50');
      const connectivity = page.getByTestId('connectivity');
      await expect(connectivity).toHaveAttribute('data-state', 'online');

      await link.cut(cut.how);
      await page.waitForTimeout(1_000);

      await test.step('over the balance just read: refused at once, with both figures', async () => {
        await keypad(page, '120');
        await expect(connectivity).toHaveAttribute('data-state', 'online');
        const started = Date.now();
        await page.getByRole('button', { name: 'Debit €120.00' }).click();
        const refusal = page
          .getByRole('alert')
          .filter({ hasText: 'This debit is over what is left on the card: it was not taken.' });
        await expect(refusal).toContainText('Balance €114.50 as of');
        await expect(refusal).toContainText('Press “Find card” again to read its balance now.');
        // On the spot: no wait for a service that does not answer.
        expect(Date.now() - started).toBeLessThan(3_000);
        await expect(page.getByTestId('debit-outcome')).toHaveCount(0);
        expect(kiosk.services.parts.outbox.list({})).toEqual([]);
      });

      await test.step('over the per-debit cap, within the balance: refused when the wait ends', async () => {
        await page
          .getByRole('group', { name: 'Numeric keypad' })
          .getByRole('button', { name: 'Clear the entry' })
          .click();
        await keypad(page, '60');
        // Nothing was sent since the cut: the kiosk still believes it is online.
        await expect(connectivity).toHaveAttribute('data-state', 'online');
        await page.getByRole('button', { name: 'Debit €60.00' }).click();
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
        const rows = kiosk.services.parts.outbox.list({});
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({
          amount: 60,
          state: 'cancelled',
          lastErrorCode: 'OUTBOX_LIMIT_EXCEEDED',
        });
      });

      await test.step('the link back and the outbox drained: the ledger is unchanged', async () => {
        await link.restore();
        await page.getByRole('button', { name: 'Check connection' }).click();
        await expect(connectivity).toHaveAttribute('data-state', 'online');
        await findCard(page, card);
        await expect(page.getByTestId('gift-card-balance')).toHaveText('€114.50');
        await expect(page.getByTestId('outbox-indicator')).toHaveText('No debit waiting');
        // Longer than the sender's first retry: a row left to send would have gone by now.
        await page.waitForTimeout(2_000);
        expect(await ledger(kiosk.sandboxUrl, card)).toEqual([]);
        expect(
          kiosk.services.parts.outbox
            .list({})
            .map((debit) => [debit.amount, debit.state, debit.lastErrorCode]),
        ).toEqual([[60, 'cancelled', 'OUTBOX_LIMIT_EXCEEDED']]);
      });
    });
  });
}
