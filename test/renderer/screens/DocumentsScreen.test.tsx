import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test } from 'vitest';
import { DocumentsScreen } from '../../../renderer/screens/DocumentsScreen.tsx';
import { PNG_1PX, printJob } from '../support/fixtures.ts';
import { ok } from '../support/fake-kiosk.ts';
import { renderKiosk, type RenderedKiosk } from '../support/render-kiosk.tsx';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  rendered?.stop();
  cleanup();
});

test('preview, printer choice, copies, print, and the job’s progress to its result', async () => {
  rendered = await renderKiosk(<DocumentsScreen />);
  await act(() =>
    rendered!.stores.documents
      .getState()
      .open({ kind: 'invoice', reference: 'sale_1', number: 'V-1' }),
  );

  expect(screen.getByTestId('document-heading').textContent).toBe('Invoice F-2026-0001');
  const preview = screen.getByRole('img', { name: 'First page of Invoice F-2026-0001' });
  expect(preview.getAttribute('src')).toBe(`data:image/png;base64,${PNG_1PX}`);

  const user = userEvent.setup();
  const printer = screen.getByRole('combobox', { name: 'Printer' });
  expect(
    within(printer)
      .getAllByRole('option')
      .map((o) => o.textContent),
  ).toEqual(['Kiosk default (kiosk-pdf)', 'kiosk-pdf: ready', 'back-office: stopped']);
  await user.selectOptions(printer, 'kiosk-pdf');
  await user.click(screen.getByRole('button', { name: 'One copy more' }));
  await user.click(screen.getByRole('button', { name: 'Print' }));
  expect(rendered.kiosk.callsOf('printInvoice')).toEqual([
    {
      requestId: expect.stringMatching(UUID_V4),
      saleId: 'sale_1',
      printer: 'kiosk-pdf',
      copies: 2,
    },
  ]);

  const job = await screen.findByTestId('print-job');
  expect(job.dataset['state']).toBe('queued');
  expect(within(job).getByRole('button', { name: 'Cancel printing' })).toBeTruthy();

  await act(async () => {
    rendered?.kiosk.emit(
      'printJobChanged',
      printJob({ state: 'printing', updatedAt: '2026-03-14T10:00:01.000Z' }),
    );
  });
  expect(screen.getByTestId('print-job').dataset['state']).toBe('printing');
  await act(async () => {
    rendered?.kiosk.emit(
      'printJobChanged',
      printJob({ state: 'completed', updatedAt: '2026-03-14T10:00:02.000Z' }),
    );
  });
  const done = screen.getByTestId('print-job');
  expect(done.dataset['state']).toBe('completed');
  expect(within(done).getByRole('status').textContent).toBe('Printed · on kiosk-pdf');
  expect(within(done).queryByRole('button', { name: 'Cancel printing' })).toBeNull();
});

test('a print problem is said in plain words', async () => {
  rendered = await renderKiosk(<DocumentsScreen />, {
    handlers: {
      previewDocument: (r) =>
        ok({
          kind: r.kind,
          reference: r.reference,
          documentNumber: 'SAV-12',
          pdfBase64: 'JVBERi0=',
          firstPagePngBase64: null,
          pngUnavailable: 'pdftoppm missing',
        }),
    },
  });
  await act(() =>
    rendered!.stores.documents
      .getState()
      .open({ kind: 'sav-slip', reference: 'sav_1', number: 'SAV-12' }),
  );
  expect(screen.getByTestId('preview-unavailable').textContent).toContain(
    'No preview image on this kiosk',
  );
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Print' }));
  expect(rendered.kiosk.callsOf('printSavSlip')).toEqual([
    { requestId: expect.stringMatching(UUID_V4), savId: 'sav_1', copies: 1 },
  ]);
  await act(async () => {
    rendered?.kiosk.emit(
      'printJobChanged',
      printJob({
        kind: 'sav-slip',
        state: 'failed',
        problem: { code: 'out_of_paper', message: 'media-empty' },
        updatedAt: '2026-03-14T10:00:05.000Z',
      }),
    );
  });
  expect(screen.getByTestId('print-job').textContent).toContain('The printer is out of paper.');
});

test('a second press before the outcome is the same request; after a failure, Retry and another printer are new ones', async () => {
  rendered = await renderKiosk(<DocumentsScreen />);
  await act(() =>
    rendered!.stores.documents
      .getState()
      .open({ kind: 'invoice', reference: 'sale_1', number: 'V-1' }),
  );
  const user = userEvent.setup();
  const print = screen.getByRole('button', { name: 'Print' });
  await user.click(print);
  await user.click(print);
  const [first, second] = rendered.kiosk.callsOf('printInvoice');
  expect(first?.requestId).toMatch(UUID_V4);
  // The job has not ended: the second tap names the same press, and main hands the job back.
  expect(second?.requestId).toBe(first?.requestId);

  await act(async () => {
    rendered?.kiosk.emit(
      'printJobChanged',
      printJob({
        state: 'failed',
        problem: { code: 'printer_offline', message: 'offline' },
        updatedAt: '2026-03-14T10:00:05.000Z',
      }),
    );
  });
  const job = screen.getByTestId('print-job');
  await user.click(within(job).getByRole('button', { name: 'Try again' }));
  const retry = rendered.kiosk.callsOf('printInvoice')[2];
  expect(retry?.requestId).toMatch(UUID_V4);
  expect(retry?.requestId).not.toBe(first?.requestId);

  await act(async () => {
    rendered?.kiosk.emit(
      'printJobChanged',
      printJob({ state: 'failed', updatedAt: '2026-03-14T10:00:09.000Z' }),
    );
  });
  await user.click(screen.getByRole('button', { name: 'Another printer' }));
  await user.click(screen.getByRole('button', { name: 'Print on back-office: stopped' }));
  const elsewhere = rendered.kiosk.callsOf('printInvoice')[3];
  expect(elsewhere).toMatchObject({ saleId: 'sale_1', printer: 'back-office' });
  expect(elsewhere?.requestId).not.toBe(retry?.requestId);
});

test('Print waits for the document, and stays off when it could not be loaded', async () => {
  rendered = await renderKiosk(<DocumentsScreen />, {
    handlers: {
      previewDocument: () => ({ ok: false, error: { code: 'NOT_FOUND', message: 'no such sale' } }),
    },
  });
  await act(() =>
    rendered!.stores.documents
      .getState()
      .open({ kind: 'invoice', reference: 'sale_404', number: null }),
  );
  const print = screen.getByRole('button', { name: 'Print' });
  expect((print as HTMLButtonElement).disabled).toBe(true);
  await act(() => rendered!.stores.documents.getState().print());
  expect(rendered.kiosk.callsOf('printInvoice')).toEqual([]);
});

test('a job its printer holds up does not say Printing', async () => {
  rendered = await renderKiosk(<DocumentsScreen />);
  await act(() =>
    rendered!.stores.documents
      .getState()
      .open({ kind: 'invoice', reference: 'sale_1', number: 'V-1' }),
  );
  await userEvent.setup().click(screen.getByRole('button', { name: 'Print' }));
  await act(async () => {
    rendered?.kiosk.emit(
      'printJobChanged',
      printJob({
        state: 'printing',
        problem: { code: 'printer_offline', message: 'Printer is offline' },
        updatedAt: '2026-03-14T10:00:03.000Z',
      }),
    );
  });
  const job = screen.getByTestId('print-job');
  expect(job.dataset['held']).toBe('true');
  expect(within(job).getByRole('status').textContent).toBe(
    'Not printing: the printer needs attention',
  );
  expect(within(job).getByRole('alert').textContent).toBe('The printer is off or disconnected.');
  expect(job.querySelector('.step-done[aria-current="step"]')).toBeNull();
});

/** A kiosk whose print presses each make a job of their own, as main does. */
function numberedJobs() {
  let next = 0;
  return {
    printInvoice: (request: { saleId: string; printer?: string }) =>
      ok(
        printJob({
          id: `job-${++next}`,
          reference: request.saleId,
          printer: request.printer ?? 'kiosk-pdf',
        }),
      ),
    cancelPrintJob: (request: { jobId: string }) =>
      ok(printJob({ id: request.jobId, state: 'cancelled' })),
  };
}

async function heldUpInvoice() {
  rendered = await renderKiosk(<DocumentsScreen />, { handlers: numberedJobs() });
  await act(() =>
    rendered!.stores.documents
      .getState()
      .open({ kind: 'invoice', reference: 'sale_1', number: 'V-1' }),
  );
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Print' }));
  await act(async () => {
    rendered?.kiosk.emit(
      'printJobChanged',
      printJob({
        id: 'job-1',
        state: 'printing',
        problem: { code: 'paper_jam', message: 'Paper jam' },
        updatedAt: '2026-03-14T10:00:03.000Z',
      }),
    );
  });
  return { user, kiosk: rendered.kiosk };
}

test('a job its printer holds up offers another printer at once: cancelled first, then printed there', async () => {
  const { user, kiosk } = await heldUpInvoice();
  const job = screen.getByTestId('print-job');
  await user.click(within(job).getByRole('button', { name: 'Another printer' }));
  await user.click(within(job).getByRole('button', { name: 'Print on back-office: stopped' }));
  // The held job can never come out later as a second copy.
  expect(kiosk.callsOf('cancelPrintJob')).toEqual([{ jobId: 'job-1' }]);
  const [first, elsewhere] = kiosk.callsOf('printInvoice');
  expect(elsewhere).toMatchObject({ saleId: 'sale_1', printer: 'back-office' });
  expect(elsewhere?.requestId).not.toBe(first?.requestId);
  expect(screen.getByTestId('print-job').dataset['state']).toBe('queued');
});

test('another printer chosen in the picker while the job is held up: Print goes there, not to the held job', async () => {
  const { user, kiosk } = await heldUpInvoice();
  await user.selectOptions(screen.getByRole('combobox', { name: 'Printer' }), 'back-office');
  await user.click(screen.getByRole('button', { name: 'Print' }));
  expect(kiosk.callsOf('cancelPrintJob')).toEqual([{ jobId: 'job-1' }]);
  const [first, moved] = kiosk.callsOf('printInvoice');
  expect(moved).toMatchObject({ printer: 'back-office' });
  expect(moved?.requestId).not.toBe(first?.requestId);
});

test('a sale with nothing to print shows no print panel, nor the last document’s "Printed"', async () => {
  rendered = await renderKiosk(<DocumentsScreen />, {
    handlers: {
      findDocument: () => ok({ found: 'sale', saleId: 'sale_2', number: 'V-2', hasInvoice: false }),
    },
  });
  await act(() =>
    rendered!.stores.documents
      .getState()
      .open({ kind: 'invoice', reference: 'sale_1', number: 'V-1' }),
  );
  await userEvent.setup().click(screen.getByRole('button', { name: 'Print' }));
  await act(async () => {
    rendered?.kiosk.emit(
      'printJobChanged',
      printJob({ state: 'completed', updatedAt: '2026-03-14T10:00:03.000Z' }),
    );
  });
  expect(screen.getByTestId('print-job').dataset['state']).toBe('completed');
  await act(() => rendered!.stores.documents.getState().find('V-2'));
  expect(screen.getByTestId('document-no-invoice')).toBeTruthy();
  expect(screen.queryByTestId('print-job')).toBeNull();
  expect(screen.queryByRole('button', { name: 'Print' })).toBeNull();
});
