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
 * per-debit cap is refused when its wait ends while nothing of it left the kiosk, and otherwise
 * (its bytes left on a black-holed connection) shown as not taken as an offline debit and held
 * for a person, never sent again by itself. Neither reaches the service once the link is back.
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

    test('over the balance read just before: refused at once, the status still online, never at the service', async ({
      page,
      kiosk,
    }) => {
      test.setTimeout(60_000);
      await readThenCut(page, kiosk);
      await keypad(page, '120');
      // Nothing was sent since the cut: the kiosk still believes it is online.
      await expect(page.getByTestId('connectivity')).toHaveAttribute('data-state', 'online');
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
      if (cut.how === 'refused') {
        // Nothing of it left the kiosk: withdrawn, a plain refusal.
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
          outbox.list({}).map((debit) => [debit.amount, debit.state, debit.lastErrorCode]),
        ).toEqual([[60, 'cancelled', 'OUTBOX_LIMIT_EXCEEDED']]);
        await expectLedgerUnchanged(page, kiosk);
        return;
      }
      // Dropped: it went out on the keep-alive connection the card was read on, which the cut
      // black-holed. Its bytes left, so it cannot be withdrawn ("refused on screen" would be a
      // claim the kiosk cannot prove); it is not taken as an offline debit either, and is held
      // for a person, never sent again by itself.
      const notice = page.getByRole('alert').filter({
        hasText:
          'This debit was not taken as an offline debit: it is over the kiosk’s offline limits. Its outcome is being checked.',
      });
      await expect(notice).toContainText(
        `The limit is the largest debit accepted offline: €${PER_DEBIT_CAP}.00.`,
        { timeout: 15_000 },
      );
      await expect(notice).toContainText('Do not take this payment again');
      await expect(page.getByTestId('debit-outcome')).toHaveCount(0);
      await expect(page.getByTestId('debit-may-be-stored')).toHaveCount(0);
      await expect(page.getByText(/applied|stored offline/)).toHaveCount(0);
      await saveScreen(page, testInfo, `gift-card-link-cut-${cut.how}-over-cap`);

      // The link back: the attempt under way ends without an answer and the row is held, not
      // retried; nothing else is left to send.
      await kiosk.link!.restore();
      await page.getByRole('button', { name: 'Check connection' }).click();
      await expect(page.getByTestId('connectivity')).toHaveAttribute('data-state', 'online');
      await expect
        .poll(
          () =>
            outbox
              .list({})
              .map((debit) => [debit.amount, debit.state, debit.outcomeUnknown?.reason]),
          { timeout: 40_000 },
        )
        .toEqual([[60, 'pending', 'OVER_OFFLINE_LIMIT']]);
      await expect(page.getByTestId('outbox-indicator')).toContainText(
        'Debits waiting: 1 (€60.00)',
      );
      expect(outbox.summary()).toMatchObject({
        pendingCount: 1,
        sendingCount: 0,
        outcomeUnknown: 1,
      });
      // Longer than the sender's first retry: a row left to send would have gone by now.
      await page.waitForTimeout(3_000);
      const [held] = outbox.list({});
      expect(held).toMatchObject({
        state: 'pending',
        outcomeUnknown: { reason: 'OVER_OFFLINE_LIMIT' },
      });
      expect(await ledger(kiosk.sandboxUrl, demoGiftCards.active)).toEqual([]);
      await findCard(page, demoGiftCards.active);
      await expect(page.getByTestId('gift-card-balance')).toHaveText('€114.50');
    });
  });
}
