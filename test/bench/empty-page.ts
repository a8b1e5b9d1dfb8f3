import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SECURITY_HEADERS } from '../../electron/host/security-policy.ts';

export interface EmptyPage {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * An empty page over HTTP, the baseline of a page's first screen: served as the host serves the
 * kiosk's page, with the same response headers, or (`plain`) with none of them. The kiosk's
 * `Cross-Origin-Opener-Policy: same-origin` has Chromium start the page in a browsing context
 * group and a renderer process of its own, tens of milliseconds of navigation that any page
 * served with it pays and a plain page does not: only the page served the same way measures what
 * the kiosk's own files and code add.
 */
export async function startEmptyPage(kind: 'as the kiosk' | 'plain'): Promise<EmptyPage> {
  const headers = kind === 'plain' ? { 'cache-control': 'no-store' } : SECURITY_HEADERS;
  const server = createServer((_request, response) => {
    response.writeHead(200, { ...headers, 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><html lang="en"><title>empty</title><p>empty</p></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // A bench that ends without closing it must not be kept alive by it.
  server.unref();
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
