import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { debitView } from '../../../electron/kiosk/views.ts';
import { localDateOf } from '../../../electron/outbox/day-bounds.ts';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { OutboxSender } from '../../../electron/outbox/sender.ts';
import { CupsBackend } from '../../../electron/printing/cups-backend.ts';
import { dayReportPdf, type DayReportLabels } from '../../../electron/printing/day-report-pdf.ts';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import { startPrivateCups, type PrivateCups } from '../../support/cups.ts';
import { startTestSandbox, type TestSandbox } from '../outbox/sandbox-support.ts';
import { tempDataDir } from '../outbox/support.ts';
import { pdfText } from './pdf.ts';

let cups: PrivateCups;
let sandbox: TestSandbox;
let data: ReturnType<typeof tempDataDir>;
let folder: string;

beforeAll(async () => {
  [cups, sandbox, folder] = await Promise.all([
    startPrivateCups(),
    startTestSandbox(14),
    mkdtemp(join(tmpdir(), 'day-report-')),
  ]);
  data = tempDataDir();
});
afterAll(async () => {
  data.cleanup();
  await Promise.all([cups.stop(), sandbox.close(), rm(folder, { recursive: true, force: true })]);
});

// The renderer's catalogue gives these words in the kiosk's language; English here.
const labels: DayReportLabels = {
  locale: 'en',
  title: 'Gift-card debits of',
  empty: 'No debit that day.',
  offline: 'taken offline',
  needsAttention: 'NEEDS ATTENTION',
  states: {
    pending: 'Waiting',
    sending: 'Sending',
    applied: 'Applied',
    refused: 'Refused',
    failed: 'Failed',
    expired: 'Expired',
    cancelled: 'Cancelled',
  },
  resolutions: {
    collected_other_way: 'Collected another way',
    could_not_collect: 'Could not collect',
  },
  methods: { cash: 'Cash', card: 'Bank card', other: 'Other' },
  columns: {
    time: 'Time',
    amount: 'Amount',
    card: 'Card',
    sale: 'Sale',
    state: 'State',
    offline: 'Offline',
    resolution: 'Resolution',
    count: 'Debits',
  },
  totals: 'Totals',
  cardNotRead: 'not read on this kiosk',
  noSaleReference: 'not given',
};

it('the end-of-day report prints through CUPS and lists the debit refused after the fact', async () => {
  let connectivity: 'online' | 'offline' = 'offline';
  const outbox = new Outbox({ db: data.open(), connectivity: () => connectivity });
  const refused = outbox.enqueue({
    giftCardId: demoGiftCards.lowBalance,
    amount: 10,
    reference: 'sale-77',
  }).debit;
  const collected = outbox.enqueue({
    giftCardId: demoGiftCards.active,
    amount: 3,
    reference: 'sale-78',
  }).debit;
  connectivity = 'online';
  const sender = new OutboxSender({ outbox, gateway: sandbox.gateway(sandbox.client()) });
  await sender.drain({ untilEmpty: true, timeoutMs: 10_000 });
  expect(outbox.get(refused.id).state).toBe('refused');
  expect(outbox.get(collected.id).state).toBe('applied');
  outbox.resolve(refused.id, { kind: 'collected_other_way', method: 'cash' });

  const date = localDateOf(refused.createdAt);
  const pdf = await dayReportPdf({ date, debits: outbox.acceptedOn(date).map(debitView) }, labels);
  const file = join(folder, 'day-report.pdf');
  await writeFile(file, pdf);
  const backend = new CupsBackend({ server: cups.server });
  const jobId = await backend.print(file, {
    printer: cups.pdfQueue,
    title: `day-report-${date}`,
    copies: 1,
  });
  const text = await pdfText(await cups.waitForOutput(jobId.slice(jobId.lastIndexOf('-') + 1)));

  const lines = text.split('\n');
  // Column headers over the table; the sale as staff gave it, never the outbox's own suffix.
  expect(lines.find((line) => line.includes('Time'))).toMatch(
    /Time\s+Amount\s+Card\s+Sale\s+State\s+Offline\s+Resolution/,
  );
  expect(text).not.toContain(refused.reference);
  expect(text).toContain(
    new Intl.DateTimeFormat('en', { dateStyle: 'full', timeZone: 'UTC' }).format(
      new Date(`${date}T00:00:00Z`),
    ),
  );
  const refusedLine = lines.find((line) => /\bsale-77\b/.test(line));
  expect(refusedLine).toBeDefined();
  expect(refusedLine).toContain('Refused');
  expect(refusedLine).toContain('taken offline');
  expect(refusedLine).toContain('Collected another');
  expect(refusedLine).toContain('€10.00');
  // Never read on this kiosk: said so, not the tail of the internal id.
  expect(refusedLine).toContain('not read on this');
  expect(text).not.toContain(demoGiftCards.lowBalance.slice(-4));
  const appliedLine = lines.find((line) => /\bsale-78\b/.test(line));
  expect(appliedLine).toContain('Applied');
  // Totals by state, after the table: one refused debit of €10, one applied of €3.
  const totals = lines.slice(lines.findIndex((line) => line.includes('Totals')));
  expect(totals.find((line) => line.includes('Refused'))).toMatch(/Refused\s+1\s+€10\.00/);
  expect(totals.find((line) => line.includes('Applied'))).toMatch(/Applied\s+1\s+€3\.00/);
});
