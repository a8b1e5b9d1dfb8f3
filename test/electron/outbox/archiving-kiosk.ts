/**
 * The kiosk app's archiver in a process of its own, crashed in the middle of a batch: it opens the
 * data directory, archives in batches of `batchSize`, and kills itself with SIGKILL (a power cut,
 * or the OOM killer) between the copy and the delete of batch number `crashAt`.
 *
 *   node archiving-kiosk.ts <dataDir> <batchSize> <crashAt>
 */
import { OutboxArchiver } from '../../../electron/outbox/archiver.ts';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { kioskSchema } from '../../../electron/schema.ts';
import { openDatabase } from '../../../electron/storage/index.ts';

const [dataDir, batchSize, crashAt] = process.argv
  .slice(2)
  .map((value, index) => (index === 0 ? value : Number(value))) as [string, number, number];
const db = openDatabase({ dataDir, schema: kioskSchema });
const outbox = new Outbox({ db });
let batches = 0;
const archiver = new OutboxArchiver({
  outbox,
  // A service clock far past every row's retention.
  serviceNow: () => ({ earliest: 4e12, latest: 4e12 + 1_000, syncAgeMs: 0, confirmed: true }),
  batchSize,
  afterCopy: () => {
    batches += 1;
    if (batches === crashAt) process.kill(process.pid, 'SIGKILL');
  },
});
await archiver.run();
process.stdout.write('finished without crashing\n');
