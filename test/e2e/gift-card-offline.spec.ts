import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { demoGiftCardBalances, demoGiftCards } from '../../sandbox/data/demo.ts';
import { startPrivateCups, type PrivateCups } from '../support/cups.ts';
import { saveScreen } from './support/evidence.ts';
import { startKiosk, type RunningKiosk } from './support/kiosk-host.ts';
import { findCard, keypad } from './support/gift-card.ts';
import { expect, openKiosk, test } from './support/kiosk-test.ts';
import { addFault, clearFaults, ledger } from './support/sandbox-control.ts';

const execFileAsync = promisify(execFile);

let cups: PrivateCups | undefined;
let kiosk: RunningKiosk | undefined;

test.beforeAll(async () => {
  // A private cupsd with a cups-pdf queue: the printed day report comes out as a file to read.
  cups = await startPrivateCups();
  kiosk = await startKiosk({ printing: { cupsServer: cups.server, printer: cups.pdfQueue } });
});

test.afterAll(async () => {
  await kiosk?.close();
  await cups?.stop();
});

test('offline: a card read earlier within its balance, over it refused, a never-seen card by the policy; back online, sent within 5 s; a debit refused after the fact is resolved', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  if (!kiosk || !cups) throw new Error('the kiosk or CUPS did not start');
  const { sandboxUrl } = kiosk;
  await openKiosk(page, kiosk);

  // Online, the card is read once: the kiosk keeps its balance for later.
  await findCard(page, demoGiftCards.active);
  await expect(page.getByTestId('gift-card-balance')).toHaveText('€114.50');
  expect(demoGiftCardBalances.active).toBe(114.5);

  await test.step('offline, the card read earlier opens with its balance as of that read', async () => {
    await addFault(sandboxUrl, { kind: 'reset' });
    await findCard(page, demoGiftCards.active);
    await expect(page.getByTestId('connectivity')).toHaveAttribute('data-state', 'offline');
    await expect(page.getByTestId('gift-card-as-of')).toContainText(
      'The service cannot be reached: balance as of',
    );
    await expect(page.getByTestId('gift-card-balance')).toHaveText('€114.50');
  });

  await test.step('within its balance: stored offline', async () => {
    await keypad(page, '20');
    await page.getByRole('button', { name: 'Debit €20.00' }).click();
    const outcome = page.getByTestId('debit-outcome');
    await expect(outcome).toHaveAttribute('data-outcome', 'storedOffline');
    await expect(outcome).toContainText('Debit of €20.00 stored offline.');
    await expect(page.getByTestId('gift-card-after-waiting')).toHaveText(
      'After debits waiting: €94.50',
    );
  });

  await test.step('over what is left: not offered, with what is left', async () => {
    await keypad(page, '95');
    // Issue 37 (5): over the known balance less the debits waiting, Débiter is not offered.
    const debit = page.getByRole('button', { name: 'Debit €95.00' });
    await expect(debit).toBeDisabled();
    await expect(page.getByTestId('debit-over-balance')).toHaveText(
      'More than the card’s known balance (€94.50): not offered.',
    );
    await expect(debit).toHaveAccessibleDescription(
      'More than the card’s known balance (€94.50): not offered.',
    );
    await saveScreen(page, testInfo, 'gift-card-offline-over-balance');
    // Nothing was stored for it: the one debit waiting is the €20.00.
    await expect(page.getByTestId('outbox-indicator')).toContainText('Debits waiting: 1 (€20.00)');
  });

  await test.step('a card never read here: the risk first, then the policy’s limit (€50.00)', async () => {
    await findCard(page, demoGiftCards.lowBalance);
    await expect(page.getByTestId('gift-card').getByRole('heading')).toHaveText(
      'A card never read on this kiosk',
    );
    await expect(page.getByTestId('gift-card-unknown-risk')).toContainText(
      'this kiosk never read this card: its balance is unknown',
    );
    await expect(page.getByTestId('gift-card-balance')).toHaveText('unknown');

    await keypad(page, '50.01');
    await page.getByRole('button', { name: 'Debit €50.01' }).click();
    const refusal = page
      .getByRole('alert')
      .filter({ hasText: 'This card was never read on this kiosk: the debit was not taken.' });
    await expect(refusal).toContainText('Offline, a card never read may be debited up to €50.00.');

    await page
      .getByRole('group', { name: 'Numeric keypad' })
      .getByRole('button', { name: 'Clear the entry' })
      .click();
    await keypad(page, '50');
    await page.getByRole('button', { name: 'Debit €50.00' }).click();
    await expect(page.getByTestId('debit-outcome')).toHaveAttribute(
      'data-outcome',
      'storedOffline',
    );
    await expect(page.getByTestId('outbox-indicator')).toContainText('Debits waiting: 2 (€70.00)');
    await saveScreen(page, testInfo, 'gift-card-offline-unknown-card');
  });
  expect(await ledger(sandboxUrl, demoGiftCards.active)).toEqual([]);

  await test.step('back online: what waited reaches the service within 5 s', async () => {
    await clearFaults(sandboxUrl);
    await page.getByRole('button', { name: 'Check connection' }).click();
    // Measured from the click: the probe, the lifted backoff and the send all fit in 5 s.
    await expect
      .poll(async () => (await ledger(sandboxUrl, demoGiftCards.active)).length, {
        timeout: 5_000,
        intervals: [100],
      })
      .toBe(1);
    await expect(page.getByTestId('connectivity')).toHaveAttribute('data-state', 'online');
    const [debit] = await ledger(sandboxUrl, demoGiftCards.active);
    expect(debit).toMatchObject({ amount: 20, balanceAfter: 94.5 });
    // The never-read card had €4.50: the service refused the €50.00 after the customer left.
    expect(await ledger(sandboxUrl, demoGiftCards.lowBalance)).toEqual([]);
  });

  await test.step('refused after the fact: a red alert on every screen until resolved', async () => {
    await page.getByRole('navigation').getByRole('button', { name: 'Availability' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Product availability');
    const alert = page.getByTestId('attention-alert');
    await expect(alert).toHaveAttribute('role', 'alert');
    await expect(alert).toContainText('Debit not collected: €50.00');
    // Never read on this kiosk: said so, never the end of the internal id; or its masked number
    // once a look-up's read went on and reached the service (issue 37, 1: offline look-ups answer
    // from the cache and read on in the background).
    await expect(alert).toContainText(/card (not read on this kiosk|[*]{4} [*]{4} [*]{4} \d{4})/);
    await expect(alert).toContainText('Reason: The card’s balance is too low for this amount.');
    await expect(alert).toHaveClass(/banner-offline/);
    await saveScreen(page, testInfo, 'attention-alert');

    // One line until opened (issue 37, 3): the facts and the decision under 'Details'.
    await expect(alert.getByRole('radio', { name: 'Bank card' })).toBeHidden();
    await alert.getByText('Details', { exact: true }).click();
    // No method chosen beforehand: one must be, before "collected another way" records it.
    await expect(alert.getByRole('button', { name: 'Collected another way' })).toBeDisabled();
    await alert.getByRole('radio', { name: 'Bank card' }).check();
    await alert.getByRole('button', { name: 'Collected another way' }).click();
    await expect(alert).toHaveCount(0);
    const [refused] = kiosk!.services.parts.outbox.list({ state: 'refused' });
    expect(refused).toMatchObject({
      amount: 50,
      staffResolution: { kind: 'collected_other_way', method: 'card' },
    });
  });

  await test.step('the day report lists it with its resolution, and prints through CUPS', async () => {
    await page.getByRole('navigation').getByRole('button', { name: 'Documents' }).click();
    const report = page.getByTestId('day-report');
    await report.getByRole('button', { name: 'Show' }).click();
    const rows = report.getByTestId('day-report-row');
    await expect(rows).toHaveCount(2);
    const refusedRow = report.locator('[data-testid="day-report-row"][data-state="refused"]');
    await expect(refusedRow).toContainText('€50.00');
    await expect(refusedRow).toContainText('taken offline');
    await expect(refusedRow).toContainText('Collected another way · Bank card');

    await report.getByRole('button', { name: 'Print this report' }).click();
    const job = report.getByTestId('print-job');
    await expect(job).toHaveAttribute('data-state', 'completed', { timeout: 30_000 });
    await expect(job.getByRole('status')).toHaveText(`Printed · on ${cups!.pdfQueue}`);
    await saveScreen(page, testInfo, 'day-report-printed');

    await expect.poll(async () => (await cups!.outputs()).length, { timeout: 20_000 }).toBe(1);
    const [name] = await cups!.outputs();
    const { stdout } = await execFileAsync('pdftotext', [
      '-layout',
      join(cups!.outputDir, name!),
      '-',
    ]);
    const [refused] = kiosk!.services.parts.outbox.list({ state: 'refused' });
    // Column headers, and never the outbox's internal reference.
    expect(stdout).toMatch(/Time\s+Amount\s+Card\s+Sale\s+State/);
    expect(stdout).not.toContain(refused!.reference);
    const lines = stdout.split('\n');
    const at = lines.findIndex((text) => text.includes('€50.00') && text.includes('Refused'));
    expect(at, stdout).toBeGreaterThan(-1);
    // A long resolution wraps in its column: the row and the line under it.
    const line = `${lines[at]} ${lines[at + 1] ?? ''}`;
    expect(line).toContain('€50.00');
    expect(line).toContain('Refused');
    expect(line).toContain('taken offline');
    expect(line).toContain('Collected another way');
    expect(line).toMatch(/Collected another way Bank\b/);
  });
});
