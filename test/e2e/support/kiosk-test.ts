import { test as base, expect, type Page } from '@playwright/test';
import { startKiosk, type KioskOptions, type RunningKiosk } from './kiosk-host.ts';
import { watchConsole } from './evidence.ts';

/**
 * Every journey runs against its own kiosk: a fresh sandbox (so the ledger and the outbox start
 * empty), the real services and the loopback browser host, torn down after the test.
 */
export const test = base.extend<{
  kioskOptions: KioskOptions;
  kiosk: RunningKiosk;
  consoleProblems: string[];
}>({
  kioskOptions: [{}, { option: true }],
  kiosk: async ({ kioskOptions }, use) => {
    const kiosk = await startKiosk(kioskOptions);
    try {
      await use(kiosk);
    } finally {
      await kiosk.close();
    }
  },
  consoleProblems: async ({ page }, use) => {
    await use(watchConsole(page));
  },
});

export { expect };

/** Opens the kiosk page and waits until it is usable: main answered and the first list is in. */
export async function openKiosk(page: Page, kiosk: RunningKiosk): Promise<void> {
  await page.goto(kiosk.url);
  await expect(page.getByTestId('connectivity')).toHaveAttribute(
    'data-state',
    /online|degraded|offline/,
  );
  await expect(page.getByTestId('results-status')).not.toBeEmpty();
}
