import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './support/chromium.ts';

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
    launchOptions: chromiumLaunchOptions,
  },
});
