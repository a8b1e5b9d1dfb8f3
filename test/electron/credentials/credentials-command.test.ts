import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../../electron/cli/kioskctl.ts';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.ts';
import {
  type KeyringRun,
  type KeyringSession,
  type SecretService,
  startKeyringSession,
} from '../../support/keyring.ts';

/**
 * `kioskctl credentials` as a technician runs it: a child process in a private keyring session
 * (real keytar, real gnome-keyring), against the real sandbox, plus a real pseudo-terminal for
 * the no-echo prompt. Every output is searched for the password and the e-mail.
 */

const cli = fileURLToPath(new URL('../../../electron/cli/kioskctl.ts', import.meta.url));

let sandbox: RunningSandbox;
let session: KeyringSession;
let dir: string;

beforeAll(async () => {
  [sandbox, session, dir] = await Promise.all([
    startSandbox({ port: 0 }),
    startKeyringSession(),
    mkdtemp(join(tmpdir(), 'kiosk-credentials-cli-')),
  ]);
});

afterAll(async () => {
  await Promise.all([
    sandbox?.close(),
    session?.stop(),
    dir && rm(dir, { recursive: true, force: true }),
  ]);
});

function account() {
  return sandbox.accounts[0]!;
}

function kioskctl(
  args: readonly string[],
  { input, secretService = 'unlocked' }: { input?: string; secretService?: SecretService } = {},
): Promise<KeyringRun> {
  return session.run(process.execPath, [cli, ...args], {
    secretService,
    ...(input !== undefined ? { input } : {}),
  });
}

/** Neither the password nor the e-mail of any account, anywhere in what kioskctl printed. */
function expectNoSecrets(run: KeyringRun, ...secrets: string[]): void {
  for (const secret of [...secrets, account().password, account().email]) {
    expect(run.stdout).not.toContain(secret);
    expect(run.stderr).not.toContain(secret);
  }
}

function errorOf(run: KeyringRun): { code: string; status: number | null; message: string } {
  const lines = run.stderr
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('{'));
  expect(lines, run.stderr).toHaveLength(1);
  return (
    JSON.parse(lines[0]!) as { error: { code: string; status: number | null; message: string } }
  ).error;
}

interface StatusReport {
  backend: string | null;
  stored: boolean;
  writable: boolean;
  problem: { code: string; message: string } | null;
  skipped: { backend: string; code: string }[];
  auth: {
    checked: boolean;
    accepted?: boolean | null;
    apiVersion?: string | null;
    scopes?: string[] | null;
    error?: { code: string; status: number | null };
    reason?: string;
  };
}

// Real processes over a real D-Bus: seconds on a busy machine, never the 5 s default.
describe('in the OS keychain (keytar, gnome-keyring)', { timeout: 60_000 }, () => {
  test('set from a pipe, then status: POST /auth accepts them; nothing secret is printed', async () => {
    const set = await kioskctl(['credentials', 'set', '--email', account().email], {
      input: `${account().password}\n`,
    });
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ backend: 'keytar', stored: true });
    expectNoSecrets(set);

    const status = await kioskctl(['--base-url', sandbox.baseUrl, 'credentials', 'status']);
    expect(status.code, status.stderr).toBe(0);
    const report = JSON.parse(status.stdout) as StatusReport;
    expect(report).toMatchObject({
      backend: 'keytar',
      stored: true,
      writable: true,
      problem: null,
      auth: { checked: true, accepted: true, apiVersion: expect.any(String) },
    });
    expectNoSecrets(status);

    // Without a base URL: where they are, but no verdict.
    const local = await kioskctl(['credentials', 'status']);
    expect(local.code).toBe(0);
    expect((JSON.parse(local.stdout) as StatusReport).auth).toMatchObject({
      checked: false,
      reason: expect.stringMatching(/--base-url/),
    });
  });

  test('a wrong password: stored, but status says POST /auth rejects it', async () => {
    const wrong = 'not-the-sandbox-password';
    const set = await kioskctl(['credentials', 'set', '--email', account().email], {
      input: `${wrong}\n`,
    });
    expect(set.code, set.stderr).toBe(0);
    expectNoSecrets(set, wrong);

    const status = await kioskctl(['credentials', 'status', '--base-url', sandbox.baseUrl]);
    expect(status.code, status.stderr).toBe(3);
    expect(JSON.parse(status.stdout)).toMatchObject({
      backend: 'keytar',
      stored: true,
      auth: { checked: true, accepted: false, error: { status: 401 } },
    });
    expectNoSecrets(status, wrong);
  });

  test('typed on a terminal: raw mode, nothing echoed, then accepted', async () => {
    // `script` gives kioskctl a real pseudo-terminal; what it prints is what the terminal shows.
    const command = [process.execPath, cli, 'credentials', 'set', '--email', account().email]
      .map((word) => `'${word}'`)
      .join(' ');
    const child = session.spawn('script', ['-q', '-e', '-c', command, '/dev/null']);
    let screen = '';
    const prompted = new Promise<void>((resolve) => {
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        screen += chunk;
        if (screen.includes('Password (not shown): ')) resolve();
      });
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (screen += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await prompted;
    // Typed key by key, with a typo corrected by Backspace, then Enter.
    for (const key of [...`${account().password}x`, '\u007f', '\r']) child.stdin!.write(key);
    expect(await exited, screen).toBe(0);
    child.stdin!.end();
    expect(screen).toContain('{"backend":"keytar","stored":true}');
    expect(screen).not.toContain(account().password);
    expect(screen).not.toContain('*');

    const status = await kioskctl(['credentials', 'status', '--base-url', sandbox.baseUrl]);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ auth: { accepted: true } });
  });

  test('set with a base URL binds the account to that API: status on another refuses', async () => {
    const set = await kioskctl(
      ['credentials', 'set', '--email', account().email, '--base-url', `${sandbox.baseUrl}/`],
      { input: `${account().password}\n` },
    );
    expect(set.code, set.stderr).toBe(0);
    expectNoSecrets(set);

    const own = await kioskctl(['credentials', 'status', '--base-url', sandbox.baseUrl]);
    expect(own.code, own.stderr).toBe(0);
    expect(JSON.parse(own.stdout)).toMatchObject({ auth: { accepted: true } });

    // Another service: refused before anything is sent (a network error would exit 4).
    const elsewhere = await kioskctl(['credentials', 'status', '--base-url', 'http://127.0.0.1:1']);
    expect(elsewhere.code, elsewhere.stderr).toBe(2);
    expect(JSON.parse(elsewhere.stdout)).toMatchObject({
      stored: true,
      auth: {
        checked: true,
        accepted: null,
        error: { code: 'CREDENTIALS_ORIGIN_MISMATCH', status: null },
      },
    });
    expectNoSecrets(elsewhere);
  });

  test('clear, then status says nothing is stored', async () => {
    const clear = await kioskctl(['credentials', 'clear']);
    expect(clear.code, clear.stderr).toBe(0);
    expect(JSON.parse(clear.stdout)).toEqual({ backend: 'keytar', cleared: true });

    const status = await kioskctl(['credentials', 'status', '--base-url', sandbox.baseUrl]);
    expect(status.code).toBe(2);
    expect(JSON.parse(status.stdout)).toMatchObject({
      backend: 'keytar',
      stored: false,
      problem: { code: 'CREDENTIALS_MISSING' },
      auth: { checked: false },
    });
  });

  test('with no Secret Service: a clear refusal, before any password is read', async () => {
    const set = await kioskctl(['credentials', 'set', '--email', account().email], {
      input: `${account().password}\n`,
      secretService: 'none',
    });
    expect(set.code).toBe(2);
    const error = errorOf(set);
    expect(error.code).toBe('NO_VAULT');
    expect(error.message).toMatch(/keytar: no Secret Service on D-Bus \(Cannot autolaunch D-Bus/);
    expect(error.message).toMatch(/gnome-keyring/);
    expect(error.message).toMatch(
      /safe-storage: Electron's safeStorage is reachable only in the kiosk app/,
    );
    expectNoSecrets(set);

    const status = await kioskctl(['credentials', 'status'], { secretService: 'none' });
    expect(status.code).toBe(2);
    expect(JSON.parse(status.stdout)).toMatchObject({
      backend: null,
      stored: false,
      problem: { code: 'NO_VAULT' },
      skipped: [
        { backend: 'keytar', code: 'NO_SECRET_SERVICE' },
        { backend: 'safe-storage', code: 'NOT_IN_ELECTRON' },
      ],
    });
  });
});

describe('with a provisioned file (in process)', () => {
  async function run(argv: readonly string[], env: Record<string, string> = {}) {
    let stdout = '';
    let stderr = '';
    const code = await main(argv, {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
      env,
    });
    return { code, stdout, stderr };
  }

  async function provision(
    mode: number,
    credentials = { email: account().email, password: account().password },
  ) {
    const path = join(dir, `provisioned-${mode.toString(8)}.json`);
    await writeFile(path, JSON.stringify(credentials));
    await chmod(path, mode);
    return path;
  }

  test('status reads it first, and POST /auth accepts it', async () => {
    const path = await provision(0o600);
    const status = await run(['credentials', 'status', '--provisioned-credentials', path], {
      KIOSK_API_BASE_URL: sandbox.baseUrl,
    });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      backend: 'file',
      location: path,
      writable: false,
      auth: { accepted: true },
    });
    expectNoSecrets(status);
  });

  test('set and clear refuse: it is read-only', async () => {
    const path = await provision(0o600);
    for (const argv of [
      ['credentials', 'set', '--email', 'x@fleet.example', '--provisioned-credentials', path],
      ['credentials', 'clear', '--provisioned-credentials', path],
    ]) {
      const result = await run(argv);
      expect(result.code).toBe(2);
      expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'VAULT_READ_ONLY' });
    }
  });

  test('group- or world-readable: refused with the chmod to run', async () => {
    const path = await provision(0o644);
    const status = await run(['credentials', 'status'], { KIOSK_PROVISIONED_CREDENTIALS: path });
    expect(status.code).toBe(2);
    const report = JSON.parse(status.stdout) as StatusReport;
    expect(report.problem?.code).toBe('INSECURE_PERMISSIONS');
    expect(report.problem?.message).toContain(`chmod go-rwx ${path}`);
    expectNoSecrets(status);
  });

  test.each([
    [['credentials'], /missing credentials command/],
    [['credentials', 'rotate'], /unknown credentials command "rotate"/],
    [['credentials', 'set'], /needs --email/],
    [['credentials', 'status', '--email', 'a@b.c'], /--email does not apply to credentials status/],
    [['credentials', 'status', '--vault', 'gnome'], /invalid credential vault configuration/],
  ])('usage: %j', async (argv, message) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr).error.message).toMatch(message);
  });
});
