import type { KioskApi } from '../../shared/ipc/contract.ts';
import { LOOPBACK_TOKEN_FRAGMENT } from '../../shared/ipc/loopback.ts';
import { createLoopbackClient } from './loopback-client.ts';

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent in a plain browser (the loopback host). */
    readonly kiosk?: KioskApi;
  }
}

const TOKEN_KEY = 'kiosk.loopbackToken';

/**
 * The loopback host's token: taken from the URL fragment on the first load, kept for this tab
 * in sessionStorage (a reload must keep working), and wiped from the address bar so it is not
 * shown, bookmarked or copied.
 */
function loopbackToken(): string | undefined {
  const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  const fromUrl = fragment.get(LOOPBACK_TOKEN_FRAGMENT);
  if (fromUrl !== null && fromUrl !== '') {
    try {
      window.sessionStorage.setItem(TOKEN_KEY, fromUrl);
    } catch {
      // Storage may be disabled; the token still works until the next reload.
    }
    fragment.delete(LOOPBACK_TOKEN_FRAGMENT);
    const rest = fragment.toString();
    window.history.replaceState(
      window.history.state,
      '',
      `${window.location.pathname}${window.location.search}${rest === '' ? '' : `#${rest}`}`,
    );
    return fromUrl;
  }
  try {
    return window.sessionStorage.getItem(TOKEN_KEY) ?? undefined;
  } catch {
    return undefined;
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
  instance = createLoopbackClient({ origin: window.location.origin, token });
  return instance;
}

/** Which transport the UI runs on, for the status screen. */
export function kioskTransport(): 'electron' | 'loopback' {
  return window.kiosk !== undefined ? 'electron' : 'loopback';
}
