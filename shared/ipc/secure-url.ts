/**
 * The one rule of every URL the kiosk sends to (the Commerce API's base URL, the OTLP collector):
 * https, or http to this machine only, so that nothing (a password, a token, the kiosk's figures
 * and log lines) crosses a network in clear.
 *
 * http only to this machine: 127.0.0.0/8 written as four decimal numbers, `[::1]` or
 * `localhost`, then an optional port. Read from the text as typed (this folder has no `URL`), so
 * other spellings of a loopback address (`2130706433`, `0x7f.1`) are refused rather than trusted.
 */
export const LOOPBACK_HTTP =
  /^http:\/\/(?:127(?:\.\d{1,3}){3}|\[::1\]|localhost)(?::\d{1,5})?(?:[/?#]|$)/i;

/** https, or http to a loopback address. */
export function isHttpsOrLoopbackHttp(url: string): boolean {
  return /^https:/i.test(url) || LOOPBACK_HTTP.test(url);
}
