import { demoGiftCards } from '../../sandbox/data/demo.ts';
import { expectAccessible, saveScreen } from './support/evidence.ts';
import { ADMIN_PIN } from './support/kiosk-host.ts';
import { findCard, keypad } from './support/gift-card.ts';
import { expect, openKiosk, test } from './support/kiosk-test.ts';
import { addFault, clearFaults, ledger } from './support/sandbox-control.ts';
import { alternateProfileFile } from './support/services.ts';

/**
 * A kiosk deployed on a service that shapes what the spec leaves 'not shown' its own way, still
 * with the default integration profile: what the profile cannot find says so, nothing breaks, a
 * debit taken offline is held (not failed) when the service refuses its shape, and once an
 * administrator gives the right profile in Setup it is applied exactly once.
 */
test.use({ kioskOptions: { dialect: 'alternate' } });

test('the wrong profile degrades visibly and holds the debit; the right one in Setup applies it once', async ({
  page,
  kiosk,
  consoleProblems,
}, testInfo) => {
  test.setTimeout(90_000);
  await openKiosk(page, kiosk);

  // The catalogue is what the spec shows: strict, and whole on any service.
  await page
    .getByRole('searchbox', { name: 'Search products' })
    .pressSequentially('glacons', { delay: 30 });
  await expect(page.getByTestId('results-status')).toHaveText(/^Products found: [1-9]/);

  // The card's balance lives elsewhere on this service: said plainly, the rest of what it gave kept.
  await findCard(page, demoGiftCards.active);
  const card = page.getByTestId('gift-card');
  await expect(page.getByTestId('gift-card-balance')).toHaveText('not provided by the service');
  await expect(card).toContainText('funds.remaining');
  await expectAccessible(page, testInfo, 'gift card read with the wrong profile');
  await saveScreen(page, testInfo, 'real-api-wrong-profile-card');

  // Offline, a card never read on this kiosk is debited within the store's risk limit.
  await addFault(kiosk.sandboxUrl, { kind: 'reset' });
  await findCard(page, demoGiftCards.lowBalance);
  await expect(page.getByTestId('connectivity')).toHaveAttribute('data-state', 'offline');
  await keypad(page, '4');
  await page.getByRole('button', { name: 'Debit €4.00' }).click();
  await expect(page.getByTestId('debit-outcome')).toHaveAttribute('data-outcome', 'storedOffline');

  // Back online, the service refuses the debit's shape (the default profile's body): held.
  await clearFaults(kiosk.sandboxUrl);
  await page.getByRole('button', { name: 'Check connection' }).click();
  await expect(page.getByTestId('connectivity')).toHaveAttribute('data-state', 'online');
  const held = page.getByTestId('held-reason');
  await expect(held).toContainText('An administrator must fix the integration profile in Setup');
  await expect(page.getByTestId('pending-debit')).toHaveAttribute('data-state', 'pending');
  await expect(page.getByTestId('outbox-indicator')).toContainText(
    'sending paused: an administrator must act',
  );
  await held.getByText('What the service said').click();
  await expect(held).toContainText('400');
  await saveScreen(page, testInfo, 'real-api-debit-held');
  expect(await ledger(kiosk.sandboxUrl, demoGiftCards.lowBalance)).toEqual([]);

  // An administrator gives this service's profile; "Check the service" finds everything.
  await page.getByRole('navigation').getByRole('button', { name: 'Setup' }).click();
  await keypad(page, ADMIN_PIN);
  await page.getByRole('button', { name: 'Unlock' }).click();
  const form = page.getByTestId('profile-form');
  await expect(form.getByTestId('profile-in-use')).toContainText('The built-in profile');
  await form.getByRole('button', { name: 'Check the service' }).click();
  // The built-in profile's paging is refused by this service, so the check reaches no gift card:
  // the report names what is missing and each read refused.
  const report = form.getByTestId('contract-report');
  await expect(report).toContainText('Not found with this profile: ping.version');
  await expect(report).toContainText('listSales: INVALID_REQUEST: unknown query parameter `page`');
  await expect(report).toContainText('getGiftCard: no gift card found');
  await form.getByLabel('Profile file', { exact: false }).fill(alternateProfileFile);
  await form.getByRole('button', { name: 'Use this profile' }).click();
  await expect(form.getByTestId('profile-in-use')).toContainText(alternateProfileFile);
  await form.getByRole('button', { name: 'Check the service' }).click();
  await expect(form.getByTestId('contract-report')).toContainText(
    'Everything the kiosk needs is found with this profile.',
  );
  await expectAccessible(page, testInfo, 'setup with the profile');
  await saveScreen(page, testInfo, 'real-api-profile-checked');

  // The held debit goes out under a new key with the right body, and is applied exactly once.
  await expect(page.getByTestId('outbox-indicator')).toHaveText('No debit waiting', {
    timeout: 15_000,
  });
  const debits = await ledger(kiosk.sandboxUrl, demoGiftCards.lowBalance);
  expect(debits.map((debit) => [debit.amount, debit.balanceAfter])).toEqual([[4, 0.5]]);
  await findCard(page, demoGiftCards.active);
  await expect(page.getByTestId('gift-card-balance')).toHaveText('€114.50');
  expect(consoleProblems).toEqual([]);
});
