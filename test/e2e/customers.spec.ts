import { ambiguousEmail } from '../../sandbox/data/demo.ts';
import { expectAccessible, saveScreen } from './support/evidence.ts';
import { expect, openKiosk, test } from './support/kiosk-test.ts';
import { serviceShapes } from './support/services.ts';

for (const service of serviceShapes) {
  test.describe(service.name, () => {
    test.use({ kioskOptions: service.kiosk });

    test('customers: an e-mail shared by two customers lists both, opens neither; a wrong first name asks again, the right one confirms', async ({
      page,
      kiosk,
      consoleProblems,
    }, testInfo) => {
      await openKiosk(page, kiosk);
      await page.getByRole('navigation').getByRole('button', { name: 'Customers' }).click();

      // The e-mail address and each detail this service searches by (its profile names all four).
      const form = page.getByRole('form', { name: 'Find a customer' });
      await expect(form.getByRole('textbox')).toHaveCount(5);
      await expect(form.getByLabel('Last name')).toBeVisible();
      await page.getByLabel('E-mail address (exact)').fill(ambiguousEmail.email);
      await page.getByRole('button', { name: 'Search' }).click();

      const matches = page.getByTestId('customer-matches');
      await expect(matches.getByTestId('customer-match')).toHaveCount(2);
      await expect(matches.getByTestId('customer-match')).toContainText([
        'Claire Moreau',
        'Julien Moreau',
      ]);
      await expect(matches.getByRole('alert')).toContainText('The kiosk does not choose one');
      // Nothing opened: no record on screen, and the matches are not buttons.
      await expect(page.getByTestId('customer-detail')).toHaveCount(0);
      await expect(matches.getByRole('button', { name: /Moreau/ })).toHaveCount(0);
      await expectAccessible(page, testInfo, 'customers (several matches)');
      await saveScreen(page, testInfo, 'customers-ambiguous');

      await matches
        .getByRole('group', { name: 'Which detail' })
        .getByRole('button', { name: 'First name' })
        .click();
      // A first name that matches neither: the list stays, and the question is asked again.
      await matches.getByRole('textbox', { name: 'First name' }).fill('Julian');
      await matches.getByRole('button', { name: 'Confirm' }).click();
      await expect(matches.getByTestId('confirm-mismatch')).toContainText('First name');
      await expect(matches.getByTestId('customer-match')).toHaveCount(2);
      await matches.getByRole('textbox', { name: 'First name' }).fill('Julien');
      await matches.getByRole('button', { name: 'Confirm' }).click();

      const detail = page.getByTestId('customer-detail');
      await expect(detail.getByRole('heading', { level: 2 })).toHaveText('Julien Moreau');
      // The account may read contact data: it is shown; the history follows.
      await expect(detail).toContainText(ambiguousEmail.email);
      await expect(page.getByTestId('history-sales')).toBeVisible();
      await expectAccessible(page, testInfo, 'customer detail');
      expect(consoleProblems).toEqual([]);
    });
  });
}
