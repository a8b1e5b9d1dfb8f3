/**
 * The kiosk app as far as a lost write-ahead log is concerned, in a process of its own: it opens
 * the data directory as the app does (WAL, synchronous=FULL, the idle checkpoint every hundred
 * commits), accepts `count` debits one IPC-like turn at a time, prints each acknowledgement as a
 * JSON line, then `ready`, and waits to be killed, as a kiosk is by a power cut: its log is never
 * copied into the file by a clean close.
 *
 *   node accepting-kiosk.ts <dataDir> <count>
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { kioskSchema } from '../../../electron/schema.ts';
import { openDatabase } from '../../../electron/storage/index.ts';

const [dataDir, countText] = process.argv.slice(2);
if (dataDir === undefined || countText === undefined) {
  throw new Error('usage: accepting-kiosk.ts <dataDir> <count>');
}
const db = openDatabase({ dataDir, schema: kioskSchema });
const outbox = new Outbox({
  db,
  connectivity: () => 'online',
  limits: { maxPendingCount: 100_000, maxPendingAmount: 1e6, maxPendingAmountPerCard: 1e6 },
});
for (let i = 0; i < Number(countText); i++) {
  const { debit } = outbox.enqueue({ giftCardId: `gift_card_lost_log_${i % 10}`, amount: 1 });
  process.stdout.write(`${JSON.stringify({ id: debit.id, key: debit.idempotencyKey })}\n`);
  // Each debit its own turn of the event loop, as each is its own IPC message in the app.
  await nextTurn();
}
process.stdout.write('ready\n');
setInterval(() => undefined, 60_000);
