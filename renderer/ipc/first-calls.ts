import { LOOPBACK_IPC_PATH, LOOPBACK_TOKEN_HEADER } from '../../shared/ipc/loopback.ts';
import { searchRequestOf } from '../stores/search-request.ts';
import { loopbackToken } from './loopback-token.ts';

/**
 * The first screen's requests, sent by the loopback page before the rest of its code is even
 * evaluated (React, the screens and every schema of the contract take the browser longer to
 * evaluate than these round trips take), and handed to the client once it exists.
 *
 * Only what the availability screen waits for: the settings (the kiosk's shop), the shops, and
 * the first page of products around that shop (the shop the settings named last time, when this
 * page has seen them before). Each reply is used once, by the client's first
 * request of that message, and only if that request is the very same (URL and body); it is then
 * read and checked against the contract like any other reply. Anything else is sent as usual.
 */

interface FirstCall {
  readonly url: string;
  /** Undefined when it was never sent (the settings it depends on did not come). */
  readonly sent: Promise<{ readonly body: string; readonly reply: Promise<Response> } | undefined>;
}

const calls: FirstCall[] = [];

/** Resolves once every first request is on its way (or could not be sent). */
export async function sendFirstCalls(
  fetch: typeof globalThis.fetch = globalThis.fetch.bind(globalThis),
): Promise<void> {
  // Inside Electron the preload's IPC needs no head start; without a token nothing can be asked.
  if (window.kiosk !== undefined || calls.length > 0) return;
  const token = loopbackToken();
  if (token === undefined) return;
  const urlOf = (name: string) => `${window.location.origin}${LOOPBACK_IPC_PATH}${name}`;
  const send = (name: string, request: unknown) => {
    const body = JSON.stringify(request);
    const reply = fetch(urlOf(name), {
      method: 'POST',
      headers: { 'content-type': 'application/json', [LOOPBACK_TOKEN_HEADER]: token },
      body,
      credentials: 'omit',
      cache: 'no-store',
    });
    // A failure is the client's to report, when it takes this reply.
    reply.catch(() => undefined);
    return { body, reply };
  };
  const settings = send('getSettings', {});
  calls.push({ url: urlOf('getSettings'), sent: Promise.resolve(settings) });
  calls.push({ url: urlOf('listShops'), sent: Promise.resolve(send('listShops', {})) });
  // The shop this page found last time: the search leaves with the settings, not after their
  // round trip (and the main thread's turn to read them), which was the first screen's longest
  // wait. A shop changed since costs the head start only: the store's request differs and is sent.
  const remembered = rememberedShop();
  const shopOfSettings = settings.reply
    .then((response) => response.clone().json())
    .then((result: unknown) => {
      const shopId = shopIdOf(result);
      // Written only when it changed: a write is a few milliseconds of the page's one thread.
      if (shopId !== remembered) rememberShop(shopId);
      return shopId;
    });
  const search =
    remembered !== undefined
      ? Promise.resolve(send('searchProducts', searchRequestOf('', remembered, 0)))
      : shopOfSettings
          .then((shopId) => send('searchProducts', searchRequestOf('', shopId, 0)))
          .catch(() => undefined);
  shopOfSettings.catch(() => undefined);
  calls.push({ url: urlOf('searchProducts'), sent: search });
  await search;
}

const SHOP_KEY = 'kiosk.firstScreenShop';

/** The kiosk's shop as this page last read it: null for none, undefined when never read. */
function rememberedShop(): string | null | undefined {
  try {
    const kept = window.localStorage.getItem(SHOP_KEY);
    const shopId: unknown = kept === null ? undefined : JSON.parse(kept);
    return typeof shopId === 'string' || shopId === null ? shopId : undefined;
  } catch {
    // Storage disabled, or a value this code did not write: wait for the settings.
    return undefined;
  }
}

function rememberShop(shopId: string | null): void {
  try {
    window.localStorage.setItem(SHOP_KEY, JSON.stringify(shopId));
  } catch {
    // Storage disabled: the next start waits for the settings, as the first one did.
  }
}

/** The kiosk's shop in a settings reply not yet checked: a wrong guess only costs the head start. */
function shopIdOf(result: unknown): string | null {
  const shopId = (result as { value?: { settings?: { shopId?: unknown } } } | null)?.value?.settings
    ?.shopId;
  return typeof shopId === 'string' ? shopId : null;
}

/** `fetch`, answering each first request from the reply already on its way. */
export function withFirstReplies(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const index = calls.findIndex((call) => call.url === url);
    if (index < 0) return fetch(input, init);
    const [call] = calls.splice(index, 1);
    const sent = await call!.sent;
    if (sent === undefined || sent.body !== init?.body) return fetch(input, init);
    try {
      return await sent.reply;
    } catch {
      // Sent too early (the host was not listening yet): once more, now.
      return fetch(input, init);
    }
  };
}
