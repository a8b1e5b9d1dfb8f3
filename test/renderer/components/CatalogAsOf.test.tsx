import { cleanup, screen } from '@testing-library/react';
import { afterEach, expect, test } from 'vitest';
import type { CatalogStatus, SyncProgress } from '../../../shared/ipc/catalog.ts';
import { CatalogAsOf } from '../../../renderer/components/CatalogAsOf.tsx';
import { catalogStatus, status } from '../support/fixtures.ts';
import { ok } from '../support/fake-kiosk.ts';
import { renderKiosk, type RenderedKiosk } from '../support/render-kiosk.tsx';

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  rendered?.stop();
  cleanup();
});

const progress: SyncProgress = {
  kind: 'changes',
  phase: 'changes',
  pagesDone: 0,
  pagesTotal: null,
  productsDone: 0,
  productsTotal: null,
  productsPerSecond: null,
  etaMs: null,
  elapsedMs: 0,
};
const syncing: CatalogStatus = { ...catalogStatus, syncing: progress };

test('a sync under way reads "updating" online', async () => {
  rendered = await renderKiosk(<CatalogAsOf />, {
    handlers: { getSyncStatus: () => ok(syncing) },
  });
  expect((await screen.findByTestId('catalog-as-of')).textContent).toBe('Catalogue updating…');
});

test('offline no update can be under way: the mirror’s age is said instead', async () => {
  rendered = await renderKiosk(<CatalogAsOf />, {
    handlers: {
      getSyncStatus: () => ok(syncing),
      getStatus: () => ok({ ...status, connectivity: 'offline' }),
    },
  });
  const line = await screen.findByTestId('catalog-as-of');
  await screen.findByText(/^Catalogue as of /);
  expect(line.textContent).not.toContain('updating');
});
