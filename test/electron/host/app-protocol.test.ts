import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appProtocolHandler } from '../../../electron/host/app-protocol.ts';
import { resolveRendererFile } from '../../../electron/host/renderer-files.ts';
import { CONTENT_SECURITY_POLICY } from '../../../electron/host/security-policy.ts';
import { type RendererFixture, SECRET_TEXT, makeRendererFixture } from './renderer-fixture.ts';

describe('the commerce-kiosk:// protocol handler', () => {
  let fixture: RendererFixture;
  let handler: (request: Request) => Promise<Response>;

  beforeAll(async () => {
    fixture = await makeRendererFixture();
    handler = appProtocolHandler(fixture.rendererDir);
  });
  afterAll(() => fixture.close());

  it('serves the renderer files with the CSP', async () => {
    const response = await handler(new Request('commerce-kiosk://kiosk/index.html'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(await response.text()).toContain('<script type="module"');
    const root = await handler(new Request('commerce-kiosk://kiosk/'));
    expect(root.status).toBe(200);
    const script = await handler(new Request('commerce-kiosk://kiosk/assets/app.js'));
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
    'commerce-kiosk://kiosk/../../etc/passwd',
    'commerce-kiosk://kiosk/%2e%2e/%2e%2e/etc/passwd',
    'commerce-kiosk://kiosk/%2E%2E/%2E%2E/etc/passwd',
    'commerce-kiosk://kiosk/..%2f..%2fetc%2fpasswd',
    'commerce-kiosk://kiosk/assets/..%2f..%2fsecret.txt',
    'commerce-kiosk://kiosk/%2fetc%2fpasswd',
    'commerce-kiosk://kiosk//etc/passwd',
    'commerce-kiosk://kiosk/..%5c..%5csecret.txt',
    'commerce-kiosk://kiosk/C:%5cWindows%5cwin.ini',
    'commerce-kiosk://kiosk/index.html%00.js',
    'commerce-kiosk://kiosk/%252e%252e/secret.txt',
    'commerce-kiosk://kiosk/assets/leak.txt',
    'commerce-kiosk://kiosk/up/secret.txt',
    'commerce-kiosk://kiosk/notes.unknownext',
    'commerce-kiosk://kiosk/missing.js',
    'commerce-kiosk://evil/index.html',
    // Another scheme with the same host: not the kiosk's page.
    'app://kiosk/index.html',
    'acme-pos://kiosk/index.html',
    'https://kiosk/index.html',
  ])('refuses %s', async (url) => {
    const response = await handler(new Request(url));
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await response.text()).not.toContain(SECRET_TEXT);
  });

  it('refuses a URL with user info (Chromium could hand one over; Node cannot build it)', async () => {
    const response = await handler({
      url: 'commerce-kiosk://user:pw@kiosk/index.html',
      method: 'GET',
    } as Request);
    expect(response.status).toBe(404);
  });

  it('refuses methods other than GET and HEAD', async () => {
    const response = await handler(
      new Request('commerce-kiosk://kiosk/index.html', { method: 'POST', body: 'x' }),
    );
    expect(response.status).toBe(405);
  });

  it("serves a scheme of the integrator's choice, and that scheme only", async () => {
    const acme = appProtocolHandler(fixture.rendererDir, 'acme-pos');
    expect((await acme(new Request('acme-pos://kiosk/index.html'))).status).toBe(200);
    expect((await acme(new Request('commerce-kiosk://kiosk/index.html'))).status).toBe(404);
    const leak = await acme(new Request('acme-pos://kiosk/assets/leak.txt'));
    expect(leak.status).toBe(403);
    expect(await leak.text()).not.toContain(SECRET_TEXT);
    expect(() => appProtocolHandler(fixture.rendererDir, 'https')).toThrow(/scheme/);
    expect(() => appProtocolHandler(fixture.rendererDir, 'Acme')).toThrow(/scheme/);
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
