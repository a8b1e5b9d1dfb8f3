import { demoSales } from '../../sandbox/data/demo.ts';
import { startPrivateCups, type PrivateCups } from '../support/cups.ts';
import { startKiosk, type RunningKiosk } from './support/kiosk-host.ts';
import { readSandbox } from './support/sandbox-api.ts';
import { expect, openKiosk, test } from './support/kiosk-test.ts';
import type { Page } from '@playwright/test';

/**
 * One press of Print is one CUPS job, whatever the fingers do; a job that fails says why within
 * seconds and offers to print again elsewhere. Real Chromium, the real kiosk services, a private
 * cupsd with a cups-pdf queue and a queue whose filter fails.
 */

let cups: PrivateCups | undefined;
let kiosk: RunningKiosk | undefined;

test.beforeAll(async () => {
  cups = await startPrivateCups();
  kiosk = await startKiosk({ printing: { cupsServer: cups.server, printer: cups.pdfQueue } });
});

test.afterAll(async () => {
  await kiosk?.close();
  await cups?.stop();
});

async function openInvoice(page: Page, running: RunningKiosk): Promise<string> {
  await openKiosk(page, running);
  const invoice = await readSandbox(
    running.sandboxUrl,
    `/v1/sales/${demoSales.withInvoice}/invoice`,
  );
  const number = String(invoice['number']);
  await page.getByRole('navigation').getByRole('button', { name: 'Documents' }).click();
  await page
    .getByRole('form', { name: 'Open a document' })
    .getByRole('textbox')
    .fill(demoSales.withInvoice);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByTestId('document-heading')).toHaveText(`Invoice ${number}`);
  return number;
}

test('a double tap on Print makes one CUPS job', async ({ page }) => {
  test.setTimeout(60_000);
  if (!kiosk || !cups) throw new Error('the kiosk or CUPS did not start');
  const before = await cups.allJobIds();
  const number = await openInvoice(page, kiosk);
  const print = page.getByRole('button', { name: 'Print', exact: true });
  // Nothing to print before staff have seen it: the preview comes first.
  await expect(page.getByRole('img', { name: `First page of Invoice ${number}` })).toBeVisible();
  await expect(print).toBeEnabled();

  // Two taps 150 ms apart, as a finger does: raw mouse events, so the second lands whatever the
  // button's state (Playwright's click() would wait for it to be enabled again).
  const box = await print.boundingBox();
  if (!box) throw new Error('the Print button is not on screen');
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.click(x, y);
  await page.waitForTimeout(150); // the rhythm of the double tap being reproduced, not a wait for a state
  await page.mouse.click(x, y);

  const job = page.getByTestId('print-job');
  await expect(job).toHaveAttribute('data-state', 'completed', { timeout: 30_000 });
  await expect.poll(async () => (await cups!.outputs()).length, { timeout: 20_000 }).toBe(1);
  const sent = (await cups.allJobIds()).filter((id) => !before.includes(id));
  expect(sent).toHaveLength(1);
  // Main kept one job for the press; the screen shows that one.
  const jobs = kiosk.services.parts.printQueue?.list() ?? [];
  expect(jobs.filter((entry) => entry.reference === demoSales.withInvoice)).toHaveLength(1);
});

test('a filter failure is said within seconds, and the invoice printed on another printer', async ({
  page,
}) => {
  test.setTimeout(60_000);
  if (!kiosk || !cups) throw new Error('the kiosk or CUPS did not start');
  await openInvoice(page, kiosk);
  await page.getByRole('combobox', { name: 'Printer' }).selectOption(cups.failingFilterQueue);
  await page.getByRole('button', { name: 'Print', exact: true }).click();

  const job = page.getByTestId('print-job');
  // The queue's own time limits are minutes: only the failure's report can be this quick.
  await expect(job).toHaveAttribute('data-state', 'failed', { timeout: 15_000 });
  await expect(job.getByRole('alert')).toHaveText(
    'The print system could not prepare the document for this printer.',
  );
  // CUPS's own words for the job: the filter's ERROR line, or, once cupsd has reaped the filter
  // (a race with the kiosk's read), its generic "Filter failed"; either way CUPS said why.
  await expect(job.getByTestId('print-job-detail')).toContainText(
    new RegExp(
      `could not convert the document for the printer: (${cups.failingFilterMessage}|Filter failed)`,
    ),
  );
  const outputsBefore = (await cups.outputs()).length;

  await job.getByRole('button', { name: 'Another printer' }).click();
  await job.getByRole('button', { name: `Print on ${cups.pdfQueue}: ready` }).click();
  await expect(job).toHaveAttribute('data-state', 'completed', { timeout: 30_000 });
  await expect(job.getByRole('status')).toHaveText(`Printed · on ${cups.pdfQueue}`);
  await expect
    .poll(async () => (await cups!.outputs()).length, { timeout: 20_000 })
    .toBe(outputsBefore + 1);
});

test('a stopped print service does not stay "ready" in the status bar', async ({ page }) => {
  test.setTimeout(60_000);
  if (!kiosk || !cups) throw new Error('the kiosk or CUPS did not start');
  await openKiosk(page, kiosk);
  const state = page.getByTestId('printer-state');
  await expect(state).toHaveText(`${cups.pdfQueue}: ready`);
  await cups.stopScheduler();
  try {
    // Read again every 10 s: the next read says the print system is gone.
    await expect(state).toHaveText('The print system of the kiosk is not running.', {
      timeout: 25_000,
    });
  } finally {
    await cups.startScheduler();
  }
  await expect(state).toHaveText(`${cups.pdfQueue}: ready`, { timeout: 25_000 });
});
