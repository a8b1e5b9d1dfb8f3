/**
 * Who sent a message, reduced to what the check needs. The Electron host fills it from
 * `event.senderFrame` (absent when the frame is gone), the browser host from its own page.
 */
export interface SenderInfo {
  /** The sending frame's URL; undefined when there is no frame (navigated away, destroyed). */
  readonly frameUrl?: string | undefined;
  readonly isMainFrame: boolean;
}

/**
 * `scheme://host[:port]` of a URL. WHATWG `URL#origin` is `null` for schemes Node does not know
 * as special (our `app:`), so the origin is rebuilt from the parsed parts; a URL carrying a user
 * or a password is never the kiosk's own page.
 */
export function originOf(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.username !== '' || parsed.password !== '' || parsed.host === '') return undefined;
  return `${parsed.protocol}//${parsed.host}`.toLowerCase();
}

export type SenderVerdict =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: 'no-frame' | 'sub-frame' | 'foreign-origin' };

/**
 * VS Code's rule: a frame must be present, be the main frame, and come from one of the app's own
 * origins (`commerce-kiosk://kiosk` in Electron, by default; the loopback host's
 * `http://127.0.0.1:<port>`).
 */
export function checkSender(sender: SenderInfo, allowedOrigins: readonly string[]): SenderVerdict {
  if (sender.frameUrl === undefined || sender.frameUrl === '')
    return { ok: false, reason: 'no-frame' };
  if (sender.isMainFrame !== true) return { ok: false, reason: 'sub-frame' };
  const origin = originOf(sender.frameUrl);
  if (origin === undefined || !allowedOrigins.some((allowed) => originOf(allowed) === origin)) {
    return { ok: false, reason: 'foreign-origin' };
  }
  return { ok: true };
}
