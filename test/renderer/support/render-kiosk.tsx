import { act, render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { Locale } from '../../../renderer/i18n/locale.ts';
import {
  createKioskStores,
  startKioskStores,
  type KioskStores,
} from '../../../renderer/stores/kiosk-stores.ts';
import { StoresProvider } from '../../../renderer/stores/stores-context.tsx';
import { fakeKiosk, ok, type FakeKiosk, type Handlers } from './fake-kiosk.ts';
import { settingsReply } from './fixtures.ts';

export interface RenderedKiosk extends RenderResult {
  readonly kiosk: FakeKiosk;
  readonly stores: KioskStores;
  readonly stop: () => void;
}

/**
 * Renders a screen (or the whole app) over the real stores and an in-test kiosk surface, the
 * stores started as the app starts them (events wired, first state read).
 */
export async function renderKiosk(
  ui: ReactElement,
  { handlers = {}, locale = 'en' }: { readonly handlers?: Handlers; readonly locale?: Locale } = {},
): Promise<RenderedKiosk> {
  // Main's settings carry the kiosk's language, which the app takes at start-up.
  const kiosk = fakeKiosk({ getSettings: () => ok(settingsReply({ locale })), ...handlers });
  const stores = createKioskStores(kiosk.api, locale);
  let stop = () => {};
  let result: RenderResult | undefined;
  await act(async () => {
    stop = startKioskStores(kiosk.api, stores);
    result = render(<StoresProvider stores={stores}>{ui}</StoresProvider>);
  });
  return { ...(result as RenderResult), kiosk, stores, stop };
}
