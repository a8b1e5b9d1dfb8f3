import { readRendererFile, resolveRendererFile } from './renderer-files.ts';
import { DEFAULT_KIOSK_SCHEME, KIOSK_HOST, checkKioskScheme } from './kiosk-window.ts';
import { SECURITY_HEADERS } from './security-policy.ts';

/**
 * The `<scheme>://kiosk/...` handler (`commerce-kiosk://kiosk/` by default): files of the renderer
 * folder only, each with the CSP. Anything else (another scheme or host, a path leaving the
 * folder, a method other than GET) gets an empty error.
 */
export function appProtocolHandler(
  rendererDir: string,
  scheme: string = DEFAULT_KIOSK_SCHEME,
): (request: Request) => Promise<Response> {
  const protocol = `${checkKioskScheme(scheme)}:`;
  return async (request) => {
    const refused = (status: number) =>
      new Response(null, { status, headers: { ...SECURITY_HEADERS } });
    if (request.method !== 'GET' && request.method !== 'HEAD') return refused(405);
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return refused(400);
    }
    if (
      url.protocol !== protocol ||
      url.host !== KIOSK_HOST ||
      url.username !== '' ||
      url.password !== ''
    ) {
      return refused(404);
    }
    // The raw pathname, still percent-encoded: resolveRendererFile decodes it once itself, so
    // `%2e%2e%2f` and `..%2f` are judged after decoding, not before.
    const file = resolveRendererFile(rendererDir, url.pathname);
    if (!file.ok) return refused(file.status);
    const bytes = await readRendererFile(file.path);
    if (bytes === undefined) return refused(404);
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(bytes), {
      status: 200,
      headers: { ...SECURITY_HEADERS, 'Content-Type': file.contentType },
    });
  };
}
