import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appProtocolHandler } from '../../../electron/host/app-protocol.ts';
import { resolveRendererFile } from '../../../electron/host/renderer-files.ts';
import { CONTENT_SECURITY_POLICY } from '../../../electron/host/security-policy.ts';
import { type RendererFixture, SECRET_TEXT, makeRendererFixture } from './renderer-fixture.ts';

describe('the app:// protocol handler', () => {
  let fixture: RendererFixture;
  let handler: (request: Request) => Promise<Response>;

  beforeAll(async () => {
    fixture = await makeRendererFixture();
    handler = appProtocolHandler(fixture.rendererDir);
  });
  afterAll(() => fixture.close());

  it('serves the renderer files with the CSP', async () => {
    const response = await handler(new Request('app://kiosk/index.html'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(await response.text()).toContain('<script type="module"');
    const root = await handler(new Request('app://kiosk/'));
    expect(root.status).toBe(200);
    const script = await handler(new Request('app://kiosk/assets/app.js'));
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('is strict: self only, no inline script, no eval, no framing', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("base-uri 'none'");
  });

  it.each([
    'app://kiosk/../../etc/passwd',
    'app://kiosk/%2e%2e/%2e%2e/etc/passwd',
    'app://kiosk/%2E%2E/%2E%2E/etc/passwd',
    'app://kiosk/..%2f..%2fetc%2fpasswd',
    'app://kiosk/assets/..%2f..%2fsecret.txt',
    'app://kiosk/%2fetc%2fpasswd',
    'app://kiosk//etc/passwd',
    'app://kiosk/..%5c..%5csecret.txt',
    'app://kiosk/C:%5cWindows%5cwin.ini',
    'app://kiosk/index.html%00.js',
    'app://kiosk/%252e%252e/secret.txt',
    'app://kiosk/assets/leak.txt',
    'app://kiosk/up/secret.txt',
    'app://kiosk/notes.unknownext',
    'app://kiosk/missing.js',
    'app://evil/index.html',
  ])('refuses %s', async (url) => {
    const response = await handler(new Request(url));
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await response.text()).not.toContain(SECRET_TEXT);
  });

  it('refuses a URL with user info (Chromium could hand one over; Node cannot build it)', async () => {
    const response = await handler({
      url: 'app://user:pw@kiosk/index.html',
      method: 'GET',
    } as Request);
    expect(response.status).toBe(404);
  });

  it('refuses methods other than GET and HEAD', async () => {
    const response = await handler(
      new Request('app://kiosk/index.html', { method: 'POST', body: 'x' }),
    );
    expect(response.status).toBe(405);
  });

  it('judges raw paths (before any URL normalisation) the same way', () => {
    const root = fixture.rendererDir;
    expect(resolveRendererFile(root, '/../../etc/passwd')).toEqual({ ok: false, status: 403 });
    expect(resolveRendererFile(root, '/%2e%2e/secret.txt')).toEqual({ ok: false, status: 403 });
    expect(resolveRendererFile(root, '/assets/../../secret.txt')).toEqual({
      ok: false,
      status: 403,
    });
    expect(resolveRendererFile(root, '/..\\secret.txt')).toEqual({ ok: false, status: 400 });
    expect(resolveRendererFile(root, 'etc/passwd')).toEqual({ ok: false, status: 400 });
    expect(resolveRendererFile(root, '/%E0%A4%A')).toEqual({ ok: false, status: 400 });
    expect(resolveRendererFile(root, '/assets/leak.txt')).toEqual({ ok: false, status: 403 });
    expect(resolveRendererFile(root, '/assets/app.js')).toMatchObject({ ok: true });
  });
});
