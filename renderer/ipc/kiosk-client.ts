import type { KioskApi } from '../../shared/ipc/contract.ts';
import { withFirstReplies } from './first-calls.ts';
import { createLoopbackClient } from './loopback-client.ts';
import { loopbackToken } from './loopback-token.ts';

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent in a plain browser (the loopback host). */
    readonly kiosk?: KioskApi;
  }
}

let instance: KioskApi | undefined;

/**
 * The kiosk API for the UI: the preload's `window.kiosk` inside Electron, else the loopback
 * client talking to the host that served this page. Both have exactly the same typed surface.
 */
export function kioskApi(): KioskApi {
  if (instance !== undefined) return instance;
  if (window.kiosk !== undefined) {
    instance = window.kiosk;
    return instance;
  }
  const token = loopbackToken();
  if (token === undefined) {
    throw new Error(
      'no kiosk bridge: open the URL the kiosk host printed (it carries the access token)',
    );
  }
  instance = createLoopbackClient({
    origin: window.location.origin,
    token,
    // The first screen's requests left while this code was still loading: their replies are used.
    fetch: withFirstReplies(globalThis.fetch.bind(globalThis)),
  });
  return instance;
}

/** Which transport the UI runs on, for the status screen. */
export function kioskTransport(): 'electron' | 'loopback' {
  return window.kiosk !== undefined ? 'electron' : 'loopback';
}
