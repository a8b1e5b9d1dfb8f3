import type { LaunchOptions } from '@playwright/test';

/**
 * Debian's Chromium as every browser test and benchmark starts it: these machines cannot
 * download Playwright's own build, and without the background-networking flags Chromium opens
 * many connections at start-up that the closed network refuses.
 */
export const chromiumLaunchOptions: LaunchOptions = {
  executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
  ],
};
