import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createKioskIntegration } from '../../electron/host/kiosk-integration.ts';
import { registerKioskScheme } from '../../electron/host/kiosk-window.ts';
import { hostExitCodes, startupRefusalOf } from '../../electron/host/startup-refusal.ts';
import { fixedCredentials } from '../../electron/kiosk/credential-store.ts';
import { SETTINGS_FILE, SettingsStore } from '../../electron/kiosk/settings-store.ts';
import { createRedactingLogger } from '../../electron/logging/index.ts';
import { MetricsSettingsError, resolveMetricsSettings } from '../../electron/metrics/index.ts';
import { DATABASE_FILE } from '../../electron/storage/index.ts';
import { ipcErrorCodes } from '../../shared/ipc/errors.ts';
import {
  ADMIN_PIN,
  type KioskFixture,
  send,
  startKioskFixture,
} from '../electron/kiosk/support.ts';
import { fakeElectron } from '../electron/host/fake-electron.ts';
import { type RendererFixture, makeRendererFixture } from '../electron/host/renderer-fixture.ts';

/**
 * What the kiosk is told at start-up. Before: the OTLP endpoint took plain http:// to any host
 * (the kiosk connected to a TEST-NET address at start), unlike the API's base URL (https, or
 * http to this machine only); a 0-byte kiosk.sqlite stopped the browser host with an uncaught
 * stack trace where kioskctl gives a clear refusal and exit 8.
 */

const browserMain = fileURLToPath(new URL('../../electron/host/browser-main.ts', import.meta.url));
const TEST_NET = 'http://192.0.2.10:4318';
const OTLP_RULE =
  /telemetry\.otlpEndpoint must be https:\/\/, or http:\/\/ to this machine only \(127\.0\.0\.1, \[::1\] or localhost\)/;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * browser-main as `npm start` runs it, with only the environment given. The kill after a minute
 * is a safety net for a start that should have been refused (it would serve on): not a timing check.
 */
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

function browserMainToExit(env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [browserMain], {
      env: { PATH: process.env['PATH'] ?? '', KIOSK_PORT: '0', KIOSK_VAULT: 'none', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    children.add(child);
    child.on('exit', () => children.delete(child));
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A real API that is not there: the data directory is then the kiosk's own, not the demo's. */
const realApi = {
  KIOSK_API_BASE_URL: 'http://127.0.0.1:9',
  KIOSK_API_EMAIL: 'kiosk@fleet.example',
  KIOSK_API_PASSWORD: 'not-a-real-password',
};

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'kiosk-security-startup-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the OTLP endpoint: https, or http to this machine only, at every door', () => {
  it('the environment (KIOSK_OTLP_ENDPOINT): refused naming the variable and the setting', () => {
    expect(() => resolveMetricsSettings(undefined, { KIOSK_OTLP_ENDPOINT: TEST_NET })).toThrow(
      MetricsSettingsError,
    );
    expect(() => resolveMetricsSettings(undefined, { KIOSK_OTLP_ENDPOINT: TEST_NET })).toThrow(
      /^KIOSK_OTLP_ENDPOINT: /,
    );
    expect(() => resolveMetricsSettings(undefined, { KIOSK_OTLP_ENDPOINT: TEST_NET })).toThrow(
      OTLP_RULE,
    );
    for (const allowed of [
      'https://otel.example.com',
      'http://127.0.0.1:4318',
      'http://localhost:4318/collector',
      'http://[::1]:4318',
    ]) {
      expect(resolveMetricsSettings(undefined, { KIOSK_OTLP_ENDPOINT: allowed }).otlpEndpoint).toBe(
        allowed,
      );
    }
    for (const refused of ['http://10.0.0.5:4318', 'http://2130706433:4318', 'http://127.1:4318']) {
      expect(() => resolveMetricsSettings(undefined, { KIOSK_OTLP_ENDPOINT: refused })).toThrow(
        OTLP_RULE,
      );
    }
  });

  it('the environment, at the host: a one-paragraph refusal, exit 1, never started', async () => {
    const run = await browserMainToExit({ KIOSK_DATA_DIR: dataDir, KIOSK_OTLP_ENDPOINT: TEST_NET });
    expect(run.code).toBe(hostExitCodes.refused);
    expect(run.stdout).not.toContain('kiosk: open');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^kiosk: cannot start: KIOSK_OTLP_ENDPOINT: /);
    expect(run.stderr).toMatch(OTLP_RULE);
  });

  it('the settings file: the telemetry key is left out, the log line names the rule', () => {
    writeFileSync(
      join(dataDir, SETTINGS_FILE),
      JSON.stringify({ shopId: 'lyon', telemetry: { otlpEndpoint: TEST_NET } }),
    );
    const lines: string[] = [];
    const logger = createRedactingLogger({ sink: (line) => lines.push(line), level: 'debug' });
    const settings = SettingsStore.open(
      dataDir,
      {
        locale: 'en',
        shopId: null,
        printer: null,
        paperSize: null,
        apiBaseUrl: null,
        offlineLimits: {} as never,
        profilePath: null,
        idleReturnSeconds: 0,
        scanMaxGapMs: 40,
        onScreenKeyboard: 'auto',
      },
      logger,
    );
    expect(settings.current.shopId).toBe('lyon');
    expect(settings.current.telemetry).toBeUndefined();
    expect(resolveMetricsSettings(settings.current.telemetry, {}).otlpEndpoint).toBeNull();
    const warning = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line['event'] === 'kiosk.settings.invalid_keys');
    expect(warning).toMatchObject({ keys: ['telemetry'] });
    expect(JSON.stringify(warning)).toMatch(OTLP_RULE);
  });

  describe('setup', () => {
    let fixture: KioskFixture;
    beforeAll(async () => {
      fixture = await startKioskFixture();
    }, 60_000);
    afterAll(() => fixture?.close());

    it('an administrator saving it: refused, naming the setting, nothing saved', async () => {
      const result = await send(fixture, 'updateSettings', {
        adminPin: ADMIN_PIN,
        changes: { telemetry: { otlpEndpoint: TEST_NET } },
      });
      expect(result).toMatchObject({ ok: false, error: { code: ipcErrorCodes.invalidRequest } });
      expect(JSON.stringify(result)).toMatch(/otlpEndpoint/);
      expect(JSON.stringify(result)).toMatch(OTLP_RULE);
      expect(fixture.services.parts.settings.overrides.telemetry).toBeUndefined();
    });
  });
});

describe('a damaged database at start-up: one paragraph and exit 8, as kioskctl', () => {
  it('the browser host: a 0-byte or foreign kiosk.sqlite', { timeout: 120_000 }, async () => {
    const cases: readonly (readonly [string, string])[] = [
      ['', 'STORAGE_DATABASE_EMPTY'],
      [
        'this is not a database, whatever its name says, and it is long enough\n',
        'STORAGE_NOT_A_DATABASE',
      ],
    ];
    for (const [content, code] of cases) {
      const database = join(dataDir, DATABASE_FILE);
      writeFileSync(database, content);
      const run = await browserMainToExit({ KIOSK_DATA_DIR: dataDir, ...realApi });
      expect(run.code, run.stderr).toBe(8);
      expect(run.stdout).not.toContain('kiosk: open');
      expect(run.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(new RegExp(`^kiosk: cannot start: ${code}: ${database} `)),
      ]);
      expect(run.stderr).toContain('(it was left untouched)');
      expect(run.stderr).not.toMatch(/^\s+at /m);
      expect(run.stderr).not.toContain(realApi.KIOSK_API_PASSWORD);
    }
  });

  describe('the Electron host', () => {
    let renderer: RendererFixture;
    beforeAll(async () => {
      renderer = await makeRendererFixture();
    });
    afterAll(() => renderer?.close());

    it('createKioskIntegration refuses; what the app says of it is the same paragraph, exit 8', async () => {
      writeFileSync(join(dataDir, DATABASE_FILE), '');
      const electron = fakeElectron();
      registerKioskScheme(electron);
      const started = createKioskIntegration({
        electron,
        dataDir,
        baseUrl: realApi.KIOSK_API_BASE_URL,
        vault: fixedCredentials(
          { email: realApi.KIOSK_API_EMAIL, password: realApi.KIOSK_API_PASSWORD },
          'environment',
        ),
        rendererDir: renderer.rendererDir,
        preloadPath: renderer.preloadPath,
        printers: { backend: 'cups', cupsServer: '127.0.0.1:9' },
      });
      const error = await started.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(startupRefusalOf(error)).toEqual({
        code: 'STORAGE_DATABASE_EMPTY',
        exitCode: 8,
        message: expect.stringMatching(
          /^STORAGE_DATABASE_EMPTY: .*kiosk\.sqlite is empty: .*\(it was left untouched\)$/,
        ),
      });
      // What was started is undone: no window left, no IPC handler bound.
      expect(electron.windows.every((window) => window.isDestroyed())).toBe(true);
    });
  });
});
