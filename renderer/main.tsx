import './zod-under-csp.ts';
import { StrictMode, useEffect } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { i18nFor } from './i18n/use-i18n.ts';
import { localeFromLanguage } from './i18n/locale.ts';
import { kioskApi, type KioskApi } from './ipc/index.ts';
import { NoBridge } from './NoBridge.tsx';
import { firstScreenReady, whenIdle } from './stores/first-screen.ts';
import { createKioskStores, startKioskStores } from './stores/kiosk-stores.ts';
import { StoresProvider } from './stores/stores-context.tsx';

/**
 * How long the first render waits for the first screen's data before drawing without it: about
 * what drawing the empty screen costs on a kiosk, so a reply later than this finds that work done
 * in the wait rather than after it, and a blank page lasts no longer.
 */
const FIRST_SCREEN_WAIT_MS = 100;

/**
 * How long the status bar's first reads may wait for an idle moment once the first screen is
 * on it: seven requests and their replies' checks, about 30 ms of the page's one thread that
 * would otherwise run right after the first frame, ahead of a tap on it.
 */
const STATUS_IDLE_WAIT_MS = 500;

/**
 * Calls `then` once its first render is in the page: rendered with flushSync, its effects run at
 * the end of that commit, before the frame is drawn (the status bar's reads also wait for the
 * page's next idle moment, which comes after it).
 */
function OnPainted({ then }: { readonly then: () => void }) {
  useEffect(then, [then]);
  return null;
}

const container = document.getElementById('root');
if (!container) throw new Error('renderer/index.html has no #root element');

const locale = localeFromLanguage(navigator.language);
document.documentElement.lang = locale;
let api: KioskApi | null;
try {
  api = kioskApi();
} catch {
  // Opened without the preload and without the host's token: nothing to talk to.
  api = null;
}
const root = createRoot(container);

if (api) {
  const stores = createKioskStores(api, locale);
  // Drawn once, with the products, rather than empty first (see firstScreenReady).
  const drawn = firstScreenReady(stores, FIRST_SCREEN_WAIT_MS).then(
    () =>
      new Promise<void>((painted) =>
        // Rendered at once, in this task, rather than in one the scheduler queues behind
        // whatever else the page has to do by then: the data is in, the screen is all that is left.
        flushSync(() =>
          root.render(
            <StrictMode>
              <StoresProvider stores={stores}>
                <App />
                <OnPainted then={painted} />
              </StoresProvider>
            </StrictMode>,
          ),
        ),
      ),
  );
  startKioskStores(api, stores, {
    statusAfter: drawn.then(() => whenIdle(STATUS_IDLE_WAIT_MS)),
  });
} else {
  root.render(<NoBridge i18n={i18nFor(locale)} />);
}
