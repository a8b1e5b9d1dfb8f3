import { expect, openKiosk, test } from './support/kiosk-test.ts';
import { expectAccessible, saveScreen } from './support/evidence.ts';
import { resizeTo } from './support/viewport.ts';

/** What the size check reads of a control (the test project has no DOM types; the page has). */
interface Control {
  readonly disabled?: boolean;
  readonly outerHTML: string;
  getBoundingClientRect(): { readonly width: number; readonly height: number };
}

test('the built renderer runs under its strict CSP, and every screen passes axe and has touch-sized controls in landscape and portrait', async ({
  page,
  kiosk,
  consoleProblems,
}, testInfo) => {
  // Six axe scans of full screens: the slowest test of the suite.
  test.setTimeout(150_000);
  await openKiosk(page, kiosk);
  const csp = await page
    .locator('meta[http-equiv="Content-Security-Policy"]')
    .getAttribute('content');
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-inline');

  const screens = [
    ['Availability', 'Product availability'],
    ['Customers', 'Customer lookup'],
    ['Gift card', 'Gift card'],
    ['Documents', 'Documents'],
    ['Setup', 'Setup'],
  ] as const;
  for (const viewport of [
    { width: 1920, height: 1080 },
    { width: 1080, height: 1920 },
  ]) {
    await resizeTo(page, viewport);
    for (const [button, heading] of screens) {
      await page.getByRole('navigation').getByRole('button', { name: button }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      // axe once per screen (its rules do not depend on the orientation); the sizes in both.
      if (viewport.width > viewport.height) await expectAccessible(page, testInfo, button);
      // Touch targets: every enabled control is at least 44 px in both directions.
      const small = await page.locator('button, select, input').evaluateAll((elements) =>
        (elements as unknown as Control[])
          .filter((element) => !element.disabled)
          .map((element) => ({ element, box: element.getBoundingClientRect() }))
          .filter(({ box }) => box.width > 0 && (box.width < 44 || box.height < 44))
          .map(({ element }) => element.outerHTML.slice(0, 120)),
      );
      expect(small, `${button} at ${viewport.width}x${viewport.height}`).toEqual([]);
    }
    if (viewport.width < viewport.height) {
      await page.getByRole('navigation').getByRole('button', { name: 'Availability' }).click();
      await saveScreen(page, testInfo, 'availability-portrait');
    }
  }
  // In French too: axe on every screen (labels, names and languages change with the words).
  await resizeTo(page, { width: 1920, height: 1080 });
  await page
    .getByRole('group', { name: 'Language' })
    .getByRole('button', { name: 'Français' })
    .click();
  for (let screen = 0; screen < screens.length; screen++) {
    await page.getByRole('navigation').getByRole('button').nth(screen).click();
    await expectAccessible(page, testInfo, `${screens[screen]![0]} (fr)`);
  }
  await page
    .getByRole('group', { name: 'Langue' })
    .getByRole('button', { name: 'English' })
    .click();
  // Unlocked setup too: it has the most controls.
  await page.getByRole('navigation').getByRole('button', { name: 'Setup' }).click();
  for (const digit of '1234') {
    await page
      .getByRole('group', { name: 'Numeric keypad' })
      .getByRole('button', { name: digit, exact: true })
      .click();
  }
  await page.getByRole('button', { name: 'Unlock' }).click();
  await expect(page.getByRole('heading', { name: 'This kiosk' })).toBeVisible();
  await expectAccessible(page, testInfo, 'setup unlocked');
  expect(consoleProblems).toEqual([]);
});
