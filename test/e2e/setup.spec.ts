import { savedApiBaseUrl } from '../../electron/kiosk/settings-store.ts';
import { expectAccessible, saveScreen } from './support/evidence.ts';
import { ADMIN_PIN } from './support/kiosk-host.ts';
import { expect, openKiosk, test } from './support/kiosk-test.ts';

test('setup: offline limits applied to the outbox at once; a base URL saved for the next start', async ({
  page,
  kiosk,
  consoleProblems,
}, testInfo) => {
  await openKiosk(page, kiosk);
  await page.getByRole('navigation').getByRole('button', { name: 'Setup' }).click();
  for (const digit of ADMIN_PIN) {
    await page
      .getByRole('group', { name: 'Numeric keypad' })
      .getByRole('button', { name: digit, exact: true })
      .click();
  }
  await page.getByRole('button', { name: 'Unlock' }).click();

  // Offline limits: the kiosk's outbox takes them as soon as they are saved.
  const limits = page.getByTestId('limits-form');
  await limits.getByLabel('Largest debit while offline (€)').fill('40');
  await limits.getByLabel('Longest wait before a debit expires (hours)').fill('12');
  await limits.getByRole('button', { name: 'Save limits' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await expect(limits.getByTestId('offline-limits')).toContainText(
    'At most €40.00 per debit while offline',
  );
  expect(kiosk.services.parts.outbox.limits).toMatchObject({
    maxOfflineDebitAmount: 40,
    maxAgeMs: 12 * 3_600_000,
  });

  // The service: a real base URL, refused while it is not http(s), then saved for the next start.
  const service = page.getByTestId('service-form');
  await expect(service.getByTestId('service-in-use')).toContainText('Demo sandbox');
  await service.getByRole('button', { name: 'Commerce API at an address' }).click();
  const url = service.getByLabel('API base URL');
  await url.fill('ftp://commerce.example.com');
  await expect(url).toHaveAttribute('aria-invalid', 'true');
  await expect(service.getByRole('button', { name: 'Save service' })).toBeDisabled();
  await url.fill('https://commerce.example.com/api');
  await service.getByRole('button', { name: 'Save service' }).click();
  await expect(service.getByTestId('restart-required')).toHaveText(
    'Saved: the kiosk will use https://commerce.example.com/api from its next start.',
  );
  // This run keeps the sandbox; the settings file holds the choice for the host's next start.
  await expect(service.getByTestId('service-in-use')).toContainText('Demo sandbox');
  expect(kiosk.services.demo).toBe(true);
  expect(savedApiBaseUrl(kiosk.dataDir)).toBe('https://commerce.example.com/api');

  await expectAccessible(page, testInfo, 'setup (service and limits)');
  await saveScreen(page, testInfo, 'setup-service-limits');
  expect(consoleProblems).toEqual([]);
});
