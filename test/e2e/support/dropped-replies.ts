import type { Page, Route } from '@playwright/test';
import { LOOPBACK_EVENTS_PATH, LOOPBACK_IPC_PATH } from '../../../shared/ipc/loopback.ts';
import type { MessageName } from '../../../shared/ipc/contract.ts';

export interface DroppedReplies {
  /** The body of every request the page sent for the message, in order. */
  readonly requests: unknown[];
  /** From now on replies and events reach the page again (the event stream on its own backoff). */
  stop(): void;
}

/**
 * Main's word never reaches the page: each request for `message` goes through the loopback host
 * to main, which acts on it (a debit is stored, and the service applies it), and its reply is cut
 * on the way back, as by a host that goes away after the commit. The event stream is refused as
 * well, so the page cannot learn the outcome from an `outboxChanged` event either: for the screen
 * the outcome stays unknown. Install before the page opens (an open stream is not cut).
 */
export async function dropReplies(page: Page, message: MessageName): Promise<DroppedReplies> {
  const requests: unknown[] = [];
  let dropping = true;
  await page.route(`**${LOOPBACK_IPC_PATH}${message}`, async (route: Route) => {
    requests.push(route.request().postDataJSON());
    if (!dropping) return route.continue();
    try {
      // Main handles the request; only its reply is lost.
      await route.fetch();
    } finally {
      await route.abort('connectionreset');
    }
  });
  await page.route(`**${LOOPBACK_EVENTS_PATH}`, (route: Route) =>
    dropping ? route.abort('connectionrefused') : route.continue(),
  );
  return {
    requests,
    stop: () => {
      dropping = false;
    },
  };
}
