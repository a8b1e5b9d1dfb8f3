/**
 * `Retry-After` is either delta-seconds or an HTTP-date (RFC 9110 §10.2.3). Returns the wait in
 * milliseconds from `now`, 0 for a date in the past, undefined when absent or unreadable (the
 * caller then falls back to its own backoff rather than trusting a garbled value).
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) {
    const seconds = Number(text);
    return Number.isSafeInteger(seconds) ? seconds * 1000 : undefined;
  }
  // HTTP-date only: Date.parse also accepts loose forms like "5", which the digit branch took.
  if (!/^[A-Za-z]{3,9},? /.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
