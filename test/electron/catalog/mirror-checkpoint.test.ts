import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { CatalogMirror } from '../../../electron/catalog/mirror.ts';
import { kioskSchema } from '../../../electron/schema.ts';
import { type KioskDatabase, openDatabase } from '../../../electron/storage/database.ts';

let dir: string;
let database: KioskDatabase;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mirror-checkpoint-'));
  database = openDatabase({ dataDir: dir, schema: kioskSchema });
});
afterEach(() => {
  database.close();
  rmSync(dir, { recursive: true, force: true });
});

const threshold = () =>
  (database.connection.prepare('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number })
    .wal_autocheckpoint;

it('defers checkpoints during a walk and gives the connection its own threshold back', async () => {
  const mirror = new CatalogMirror(database);
  const before = threshold();
  const during = await mirror.withCheckpointEvery(16_384, async () => threshold());
  expect(during).toBe(16_384);
  expect(threshold()).toBe(before);
});

it('gives the threshold back when the walk fails', async () => {
  const mirror = new CatalogMirror(database);
  const before = threshold();
  await expect(
    mirror.withCheckpointEvery(16_384, async () => {
      throw new Error('the service went away');
    }),
  ).rejects.toThrow('the service went away');
  expect(threshold()).toBe(before);
});
