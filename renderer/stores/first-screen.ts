import type { KioskStores } from './kiosk-stores.ts';

/** Whether the first screen has what it shows: the kiosk's settings, and the first answer. */
function hasFirstScreen({ setup, availability }: Pick<KioskStores, 'setup' | 'availability'>) {
  const settings = setup.getState();
  const products = availability.getState();
  return (
    (settings.settings !== null || settings.settingsError !== null) &&
    !products.searching &&
    (products.meta !== null || products.error !== null)
  );
}

/**
 * Resolves once the first screen has what it shows (the kiosk's settings, then the first
 * search's answer or its error), or after `atMostMs`, whichever comes first: the moment for the
 * app's first render.
 *
 * The first replies are usually in before the app's code has even been evaluated. Rendering at
 * once would draw the empty screen, lay it out and run its effects, then render again as each
 * reply is read, all on the page's one thread while the products wait; rendered here, the
 * screen is drawn once, with them. A slow answer (a live search while the mirror is empty) must
 * not leave the page blank: after `atMostMs` the screen is drawn and fills in as replies come.
 */
export function firstScreenReady(
  stores: Pick<KioskStores, 'setup' | 'availability'>,
  atMostMs: number,
): Promise<void> {
  return new Promise((resolve) => {
    if (hasFirstScreen(stores)) {
      resolve();
      return;
    }
    const check = () => {
      if (hasFirstScreen(stores)) done();
    };
    const stops = [stores.setup.subscribe(check), stores.availability.subscribe(check)];
    const timer = setTimeout(() => done(), atMostMs);
    function done() {
      clearTimeout(timer);
      for (const stop of stops) stop();
      resolve();
    }
  });
}

/**
 * Resolves at the page's next idle moment, or after `atMostMs` if none comes: for work no one
 * is waiting for, kept out of the tasks that finish drawing a screen and answer its first tap.
 */
export function whenIdle(atMostMs: number): Promise<void> {
  return new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: atMostMs }));
}
