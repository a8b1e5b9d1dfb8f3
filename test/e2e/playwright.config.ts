import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  outputDir: fileURLToPath(new URL('../../test-results/e2e/', import.meta.url)),
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // Two cores: one worker keeps Chromium from starving the servers the specs start.
  workers: 1,
  reporter: 'list',
  timeout: 30_000,
  use: {
    headless: true,
    // The kiosk's landscape screen; the portrait one (1080×1920) is set by the tests that need it.
    viewport: { width: 1920, height: 1080 },
    trace: 'retain-on-failure',
    launchOptions: {
      // Debian's chromium: these machines cannot download Playwright's own browser build.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        // Without these Chromium opens many connections at start-up that the closed network refuses.
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
      ],
    },
  },
});
