import { expect, test } from 'vitest';
import { kioskSchema } from '../../electron/schema.ts';

test('the shipped migrations keep their versions and names: kiosks in the field are at each one', () => {
  const shipped = kioskSchema.migrations
    .slice(0, 3)
    .map(({ version, name }) => ({ version, name }));
  expect(shipped).toEqual([
    { version: 1, name: 'outbox: durable gift-card debits' },
    { version: 2, name: 'leases: one worker per data directory' },
    {
      version: 3,
      name: 'catalogue mirror: products, items, search index, referentials, sync state',
    },
  ]);
});
