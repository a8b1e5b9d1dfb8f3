import { LOOPBACK_TOKEN_FRAGMENT } from '../../shared/ipc/loopback.ts';

const TOKEN_KEY = 'kiosk.loopbackToken';

let read = false;
let token: string | undefined;

/**
 * The loopback host's token: taken from the URL fragment on the first load, kept for this tab
 * in sessionStorage (a reload must keep working), and wiped from the address bar so it is not
 * shown, bookmarked or copied. Read once per page: the first requests leave before the app's
 * client exists, and the fragment is gone by then (and storage may be disabled).
 */
export function loopbackToken(): string | undefined {
  if (!read) {
    token = readToken();
    read = true;
  }
  return token;
}

function readToken(): string | undefined {
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
