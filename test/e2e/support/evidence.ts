import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';

export const SCREENS_DIR = fileURLToPath(
  new URL('../../../test-results/screens/', import.meta.url),
);

/** Saves the screen as `test-results/screens/<name>.png` and attaches it to the test's report. */
export async function saveScreen(page: Page, testInfo: TestInfo, name: string): Promise<string> {
  await mkdir(SCREENS_DIR, { recursive: true });
  const path = `${SCREENS_DIR}${name}.png`;
  await page.screenshot({ path, animations: 'disabled' });
  await testInfo.attach(name, { path, contentType: 'image/png' });
  return path;
}

/** An axe-core scan of what is on screen: no serious or critical violation. */
export async function expectAccessible(
  page: Page,
  testInfo: TestInfo,
  screen: string,
): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const blocking = results.violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
  if (blocking.length > 0) {
    await testInfo.attach(`axe-${screen}.json`, {
      body: JSON.stringify(blocking, null, 2),
      contentType: 'application/json',
    });
  }
  expect(
    blocking.map(
      (v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    ),
    `axe on the ${screen} screen`,
  ).toEqual([]);
}

/** Console errors and page errors, collected for a test to assert there were none. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // Catalogue photos live on the retailer's CDN, unreachable from a closed test machine.
    if (
      message.text().startsWith('Failed to load resource') &&
      message.location().url.startsWith('https://')
    )
      return;
    problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}
