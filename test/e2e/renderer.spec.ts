import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { preview, type PreviewServer } from 'vite';

const configFile = fileURLToPath(new URL('../../vite.config.ts', import.meta.url));
const builtIndex = fileURLToPath(new URL('../../dist/renderer/index.html', import.meta.url));

let server: PreviewServer;
let baseUrl: string;

test.beforeAll(async () => {
  if (!existsSync(builtIndex)) {
    throw new Error(`${builtIndex} is missing: run \`npm run build:renderer\` first`);
  }
  // Port 0: several people run the suite on one machine; a fixed port would collide.
  server = await preview({
    configFile,
    logLevel: 'silent',
    preview: { host: '127.0.0.1', port: 0 },
  });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview did not report its URL');
  baseUrl = url;
});

test.afterAll(async () => {
  await server?.close();
});

test('the built renderer shows the product heading under its strict CSP', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));

  await page.goto(baseUrl);

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('commerce-kiosk');
  await expect(page.getByText('Kiosk UI: not built yet')).toBeVisible();
  const csp = await page
    .locator('meta[http-equiv="Content-Security-Policy"]')
    .getAttribute('content');
  expect(csp).toContain("default-src 'none'");
  // A CSP violation or a script error shows up on the console; the bundle must run without one.
  expect(problems).toEqual([]);
});
