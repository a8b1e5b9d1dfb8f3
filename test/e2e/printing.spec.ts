import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { demoSales } from '../../sandbox/data/demo.ts';
import { startPrivateCups, type PrivateCups } from '../support/cups.ts';
import { expectAccessible, saveScreen } from './support/evidence.ts';
import { readSandbox } from './support/sandbox-api.ts';
import { startKiosk, type RunningKiosk } from './support/kiosk-host.ts';
import { expect, openKiosk, test } from './support/kiosk-test.ts';
import { serviceShapes } from './support/services.ts';

const execFileAsync = promisify(execFile);

for (const service of serviceShapes) {
  test.describe(service.name, () => {
    let cups: PrivateCups | undefined;
    let kiosk: RunningKiosk | undefined;

    test.beforeAll(async () => {
      // A private cupsd with a cups-pdf queue: the printed invoice comes out as a file to read.
      cups = await startPrivateCups();
      kiosk = await startKiosk({
        ...service.kiosk,
        printing: { cupsServer: cups.server, printer: cups.pdfQueue },
      });
    });

    test.afterAll(async () => {
      await kiosk?.close();
      await cups?.stop();
    });

    test('invoice: from the customer’s sale, Print invoice shows the preview and prints the PDF that comes out', async ({
      page,
    }, testInfo) => {
      test.setTimeout(60_000);
      if (!kiosk || !cups) throw new Error('the kiosk or CUPS did not start');
      await openKiosk(page, kiosk);
      await expect(page.getByTestId('printer-state')).toHaveText(`${cups.pdfQueue}: ready`);

      await page.getByRole('navigation').getByRole('button', { name: 'Customers' }).click();
      await page.getByLabel('E-mail address (exact)').fill('helene.lefevre@example.com');
      await page.getByRole('button', { name: 'Search' }).click();
      await expect(page.getByTestId('customer-detail').getByRole('heading')).toHaveText(
        'Hélène Lefèvre',
      );
      // Sale and invoice numbers follow the sandbox's clock: ask it which ones this sale has.
      const sale = {
        number: service.saleNumber(
          await readSandbox(kiosk.sandboxUrl, `/v1/sales/${demoSales.withInvoice}`),
        ),
      };
      const invoice = {
        number: service.invoiceNumber(
          await readSandbox(kiosk.sandboxUrl, `/v1/sales/${demoSales.withInvoice}/invoice`),
        ),
      };
      // The sale is read from the service when opened: it has an invoice, so print is offered.
      const sales = page.getByTestId('history-sales');
      await sales.getByRole('button', { name: `Details of sale ${sale.number}` }).click();
      await sales.getByRole('button', { name: `Print invoice of sale ${sale.number}` }).click();

      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Documents');
      await expect(page.getByTestId('document-heading')).toHaveText(`Invoice ${invoice.number}`);
      await expect(
        page.getByRole('img', { name: `First page of Invoice ${invoice.number}` }),
      ).toBeVisible();
      // Print invoice prints, on the kiosk's printer, once the preview is on screen: no second press.
      const job = page.getByTestId('print-job');
      await expect(job).toHaveAttribute('data-state', 'completed', { timeout: 30_000 });
      await expect(job.getByRole('status')).toHaveText(`Printed · on ${cups.pdfQueue}`);
      await expectAccessible(page, testInfo, 'documents');
      await saveScreen(page, testInfo, 'documents-printed');

      // What the printer got is the service's invoice.
      await expect.poll(async () => (await cups!.outputs()).length, { timeout: 20_000 }).toBe(1);
      const [name] = await cups.outputs();
      const output = join(cups.outputDir, name!);
      const pdf = await readFile(output);
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const { stdout } = await execFileAsync('pdftotext', [output, '-']);
      expect(stdout).toContain(invoice.number);
    });
  });
}
