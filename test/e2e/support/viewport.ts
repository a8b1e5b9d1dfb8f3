import type { Page } from '@playwright/test';

/**
 * Resizes the page and returns once it is laid out at the new size: under load the browser can
 * still be between two sizes when `setViewportSize` returns, and a layout measured then is not
 * one staff ever see.
 */
export async function resizeTo(
  page: Page,
  size: { readonly width: number; readonly height: number },
): Promise<void> {
  await page.setViewportSize(size);
  // Strings, evaluated in the page: these tests are typed without the DOM's globals.
  await page.waitForFunction(`innerWidth === ${size.width} && innerHeight === ${size.height}`);
  await page.evaluate(
    'new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted)))',
  );
}
