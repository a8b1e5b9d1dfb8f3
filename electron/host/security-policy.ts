/**
 * The content security policy and response headers of the kiosk page, identical on both hosts
 * (Electron's `commerce-kiosk://kiosk` and the loopback browser host), so what is tested in
 * Chromium through the browser host is what runs in the kiosk.
 *
 * - scripts, styles, fonts and connections: the app's own origin only, no inline script, no eval;
 * - images: also `data:`/`blob:` (document previews) and `https:` (catalogue media are URLs on
 *   the retailer's CDN; an image cannot run code);
 * - no plugins, no frames of or around the page, no forms posting anywhere, no `<base>`.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob: https:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-src 'none'",
  "worker-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers sent with every file of the renderer. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), usb=(), serial=(), hid=()',
  'Cache-Control': 'no-store',
};
