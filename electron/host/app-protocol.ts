import { readRendererFile, resolveRendererFile } from './renderer-files.ts';
import { APP_HOST } from './kiosk-window.ts';
import { SECURITY_HEADERS } from './security-policy.ts';

/**
 * The `app://kiosk/...` handler: files of the renderer folder only, each with the CSP. Anything
 * else (another host, a path leaving the folder, a method other than GET) gets an empty error.
 */
export function appProtocolHandler(rendererDir: string): (request: Request) => Promise<Response> {
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
    if (url.host !== APP_HOST || url.username !== '' || url.password !== '') return refused(404);
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
