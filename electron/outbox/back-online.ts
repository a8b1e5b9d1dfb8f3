import type { ConnectivityChange } from '../api/index.ts';

export interface BackOnlineOptions {
  /** Uniform in [0, 1): when in the window this kiosk goes. */
  readonly random?: () => number;
  /**
   * The window the waiting debits go out in after the service is seen again (default 4 s): short
   * enough for staff (sent within 5 s), long enough that a fleet back from the same outage does
   * not send everything in the same second.
   */
  readonly windowMs?: number;
}

export const DEFAULT_BACK_ONLINE_WINDOW_MS = 4_000;

/**
 * Lifts the sender's backoff when the service answers again after an outage, at a random moment
 * of a short window. Not when the service itself asked for a pause: after a 429 (`RATE_LIMITED`)
 * its Retry-After stands, and lifting it at the next good answer would bring the herd straight
 * back. Returns the unsubscribe.
 */
export function liftBackoffWhenBackOnline(
  connectivity: {
    on(event: 'change', listener: (change: ConnectivityChange) => void): () => void;
  },
  sender: { liftBackoff(): void },
  { random = Math.random, windowMs = DEFAULT_BACK_ONLINE_WINDOW_MS }: BackOnlineOptions = {},
): () => void {
  let wentOffline = false;
  let rateLimited = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const off = connectivity.on('change', (change) => {
    if (change.to !== 'online') {
      if (change.to === 'offline') wentOffline = true;
      rateLimited = change.detail === 'RATE_LIMITED';
      return;
    }
    const lift = wentOffline || !rateLimited;
    wentOffline = false;
    rateLimited = false;
    if (!lift || timer !== undefined) return;
    timer = setTimeout(
      () => {
        timer = undefined;
        sender.liftBackoff();
      },
      Math.floor(random() * windowMs),
    );
    timer.unref?.();
  });
  return () => {
    off();
    if (timer !== undefined) clearTimeout(timer);
  };
}
