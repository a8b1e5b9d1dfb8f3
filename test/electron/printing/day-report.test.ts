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

  const refusedLine = text.split('\n').find((line) => line.includes(refused.reference));
  expect(refusedLine).toBeDefined();
  expect(refusedLine).toContain('Refused');
  expect(refusedLine).toContain('taken offline');
  expect(refusedLine).toContain('Collected another way Cash');
  expect(refusedLine).toContain('€10.00');
  const appliedLine = text.split('\n').find((line) => line.includes(collected.reference));
  expect(appliedLine).toContain('Applied');
});
