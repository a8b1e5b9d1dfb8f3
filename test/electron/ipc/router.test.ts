import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ipcErrorCodes, ipcMessages, messageNames } from '../../../shared/ipc/index.ts';
import {
  CredentialsRejected,
  Forbidden,
  NetworkError,
  NotFound,
} from '../../../electron/api/errors.ts';
import { CatalogError } from '../../../electron/catalog/errors.ts';
import { toIpcError } from '../../../electron/ipc/error-mapping.ts';
import { IpcFailure } from '../../../electron/ipc/ipc-failure.ts';
import { type KioskHandlers, createIpcRouter } from '../../../electron/ipc/router.ts';
import { checkSender, originOf } from '../../../electron/ipc/sender-check.ts';
import { AdminPin } from '../../../electron/kiosk/admin-pin.ts';
import { OutboxError } from '../../../electron/outbox/errors.ts';
import { OfflineLimitExceeded } from '../../../electron/outbox/limits.ts';
import { PrintError } from '../../../electron/printing/backend.ts';
import { validRequests } from '../../shared/ipc/samples.ts';

const PAGE = { frameUrl: 'app://kiosk/index.html', isMainFrame: true };

function handlersReturning(value: (name: string) => unknown): KioskHandlers {
  return Object.fromEntries(
    messageNames.map((name) => [name, () => value(name)]),
  ) as unknown as KioskHandlers;
}

describe('sender check', () => {
  const allowed = ['app://kiosk', 'http://127.0.0.1:4100'];

  it('accepts the main frame of the app origins', () => {
    expect(checkSender(PAGE, allowed)).toEqual({ ok: true });
    expect(checkSender({ frameUrl: 'APP://KIOSK/#/settings', isMainFrame: true }, allowed)).toEqual(
      { ok: true },
    );
    expect(checkSender({ frameUrl: 'http://127.0.0.1:4100/', isMainFrame: true }, allowed)).toEqual(
      { ok: true },
    );
  });

  it.each([
    [{ isMainFrame: true }, 'no-frame'],
    [{ frameUrl: '', isMainFrame: true }, 'no-frame'],
    [{ frameUrl: 'app://kiosk/index.html', isMainFrame: false }, 'sub-frame'],
    [{ frameUrl: 'https://evil.example/', isMainFrame: true }, 'foreign-origin'],
    [{ frameUrl: 'app://kiosk.evil.example/', isMainFrame: true }, 'foreign-origin'],
    [{ frameUrl: 'app://evil@kiosk/', isMainFrame: true }, 'foreign-origin'],
    [{ frameUrl: 'http://127.0.0.1:4101/', isMainFrame: true }, 'foreign-origin'],
    [{ frameUrl: 'http://localhost:4100/', isMainFrame: true }, 'foreign-origin'],
    [{ frameUrl: 'file:///work/dist/renderer/index.html', isMainFrame: true }, 'foreign-origin'],
    [{ frameUrl: 'about:blank', isMainFrame: true }, 'foreign-origin'],
    [{ frameUrl: 'not a url', isMainFrame: true }, 'foreign-origin'],
  ])('refuses %j (%s)', (sender, reason) => {
    expect(checkSender(sender, allowed)).toEqual({ ok: false, reason });
  });

  it("computes custom-scheme origins Node's URL calls null", () => {
    expect(new URL('app://kiosk/x').origin).toBe('null');
    expect(originOf('app://kiosk/x')).toBe('app://kiosk');
  });
});

describe('router', () => {
  it('refuses a foreign sender without calling the service', async () => {
    let called = false;
    const router = createIpcRouter({
      handlers: handlersReturning(() => (called = true)),
      allowedOrigins: ['app://kiosk'],
      adminGuard: { verify: () => undefined },
    });
    const result = await router.handle(
      'kiosk:getStatus',
      {},
      { frameUrl: 'https://x.test/', isMainFrame: true },
    );
    expect(result).toEqual({
      ok: false,
      error: {
        code: ipcErrorCodes.forbiddenSender,
        message: expect.any(String),
        details: { reason: 'foreign-origin' },
      },
    });
    expect(called).toBe(false);
  });

  it('lists every message channel for the hosts to register', () => {
    const router = createIpcRouter({
      handlers: handlersReturning(() => null),
      allowedOrigins: ['app://kiosk'],
      adminGuard: { verify: () => undefined },
    });
    expect(router.channels).toEqual(messageNames.map((name) => ipcMessages[name].channel));
  });

  it('checks replies against the contract and strips what it does not declare', async () => {
    const router = createIpcRouter({
      handlers: handlersReturning((name) =>
        name === 'checkAdminPin'
          ? { valid: true, password: 'leak', token: 'eyJleak' }
          : name === 'checkConnectivity'
            ? { connectivity: 'sideways' }
            : null,
      ),
      allowedOrigins: ['app://kiosk'],
      adminGuard: { verify: () => undefined },
    });
    expect(await router.handle('kiosk:checkAdminPin', { pin: '1234' }, PAGE)).toEqual({
      ok: true,
      value: { valid: true },
    });
    const broken = await router.handle('kiosk:checkConnectivity', {}, PAGE);
    expect(broken).toMatchObject({ ok: false, error: { code: ipcErrorCodes.internal } });
  });

  it('checks the administrator PIN before a protected handler, with a lockout', async () => {
    let now = 0;
    const lockoutDir = mkdtempSync(join(tmpdir(), 'kiosk-router-pin-'));
    onTestFinished(() => rmSync(lockoutDir, { recursive: true, force: true }));
    const pin = new AdminPin({
      pin: '4821',
      lockoutDir,
      maxAttempts: 3,
      lockoutMs: 1_000,
      clock: { now: () => now, monotonic: () => now },
    });
    let writes = 0;
    const router = createIpcRouter({
      handlers: handlersReturning(() => {
        writes += 1;
        return {
          credentials: { configured: true, backend: 'keytar', writable: true, problem: null },
        };
      }),
      allowedOrigins: ['app://kiosk'],
      adminGuard: pin,
    });
    const send = (adminPin: string) =>
      router.handle('kiosk:setCredentials', { ...validRequests.setCredentials, adminPin }, PAGE);
    expect(await send('0000')).toMatchObject({ ok: false, error: { code: 'ADMIN_PIN_INVALID' } });
    expect(await send('1111')).toMatchObject({ ok: false, error: { code: 'ADMIN_PIN_INVALID' } });
    expect(await send('2222')).toMatchObject({ ok: false, error: { code: 'ADMIN_PIN_INVALID' } });
    // Locked: even the right PIN is refused until the lockout ends.
    expect(await send('4821')).toMatchObject({
      ok: false,
      error: { code: 'ADMIN_PIN_LOCKED', details: { retryAfterMs: 1_000 } },
    });
    expect(writes).toBe(0);
    now += 1_000;
    expect(await send('4821')).toMatchObject({ ok: true });
    expect(writes).toBe(1);
    expect(() => new AdminPin({ lockoutDir }).check('1234')).toThrow(IpcFailure);
  });

  it('turns an unexpected failure into a generic internal error (no raw message)', async () => {
    const router = createIpcRouter({
      handlers: handlersReturning(() => {
        throw new Error('ENOENT /home/kiosk/secret-password.txt');
      }),
      allowedOrigins: ['app://kiosk'],
      adminGuard: { verify: () => undefined },
    });
    const result = await router.handle('kiosk:getStatus', {}, PAGE);
    expect(result).toEqual({
      ok: false,
      error: { code: ipcErrorCodes.internal, message: expect.not.stringContaining('password') },
    });
  });
});

describe('error mapping', () => {
  it('keeps the API error kind, code and status, and redacts the message', () => {
    const error = toIpcError(
      new NotFound({
        code: 'RESOURCE_NOT_FOUND',
        status: 404,
        explanation: 'no customer jean.dupont@example.com',
        operationId: 'getCustomer',
      }),
    );
    expect(error).toEqual({
      code: 'RESOURCE_NOT_FOUND',
      message: 'RESOURCE_NOT_FOUND: no customer [redacted]',
      details: { kind: 'NotFound', status: 404 },
    });
    expect(
      toIpcError(
        new Forbidden({
          code: 'FORBIDDEN',
          status: 403,
          explanation: 'x',
          missingScopes: ['customers:pii:read'],
        }),
      ).details,
    ).toEqual({ kind: 'Forbidden', status: 403, missingScopes: ['customers:pii:read'] });
    expect(
      toIpcError(
        new NetworkError({
          code: 'NETWORK_ERROR',
          explanation: 'ECONNREFUSED',
          requestSent: false,
        }),
      ).details,
    ).toEqual({ kind: 'NetworkError', status: null, requestSent: false });
    const rejected = toIpcError(
      new CredentialsRejected({
        code: 'CREDENTIALS_REJECTED',
        status: 401,
        explanation: 'token eyJhbGciOi.eyJzdWIi.sig refused',
      }),
    );
    expect(rejected.message).not.toContain('eyJ');
  });

  it('maps the catalogue, outbox and printing errors to their stable codes', () => {
    expect(
      toIpcError(new CatalogError('CATALOG_FORBIDDEN', 'x', { missingScopes: ['stock:read'] })),
    ).toMatchObject({
      code: 'CATALOG_FORBIDDEN',
      details: { missingScopes: ['stock:read'] },
    });
    expect(toIpcError(new OutboxError('OUTBOX_NOT_CANCELLABLE', 'sent'))).toMatchObject({
      code: 'OUTBOX_NOT_CANCELLABLE',
    });
    expect(
      toIpcError(
        new OfflineLimitExceeded({
          limit: 'maxOfflineDebitAmount',
          allowed: 150,
          wouldBe: 200,
          excess: 50,
          unit: 'EUR',
        }),
      ),
    ).toMatchObject({
      code: 'OUTBOX_LIMIT_EXCEEDED',
      details: { breach: { limit: 'maxOfflineDebitAmount', excess: 50 } },
    });
    expect(
      toIpcError(new PrintError('out_of_paper', 'Out of paper', { transient: false })),
    ).toEqual({
      code: 'PRINT_OUT_OF_PAPER',
      message: 'Out of paper',
      details: { problem: 'out_of_paper', transient: false },
    });
    const vault = Object.assign(new Error('keyring locked for admin@example.com'), {
      code: 'VAULT_LOCKED',
    });
    expect(toIpcError(vault)).toEqual({
      code: 'VAULT_LOCKED',
      message: 'keyring locked for [redacted]',
    });
    expect(toIpcError('a string')).toMatchObject({ code: ipcErrorCodes.internal });
  });
});
