/**
 * A private OS keychain for tests: gnome-keyring's Secret Service on a private D-Bus session bus,
 * with its keyrings, runtime sockets and home in a temp folder, so a test never touches (or
 * depends on) the keychain of the machine it runs on.
 *
 * Why a child process per command: keytar talks to D-Bus from the process that loads it, and
 * GLib connects to the session bus once per process, from DBUS_SESSION_BUS_ADDRESS as it is at
 * that moment. The vitest worker cannot be pointed at a private bus (or at none) reliably, so the
 * code under test runs in a child started as
 *
 *   dbus-run-session -- sh -c 'printf %s "$pw" | gnome-keyring-daemon --unlock \
 *     --components=secrets --daemonize; exec "$@"' sh node child.ts ...
 *
 * `--unlock` reads the keyring password on stdin and creates (first run) or unlocks the `login`
 * keyring under $XDG_DATA_HOME/keyrings, which is the session's default collection; without it
 * the daemon is D-Bus-activated with no unlocked collection and every write fails. The keyring
 * files stay in the temp folder between commands, so what one child stores the next one reads
 * (a new bus and daemon each time, like a kiosk after a reboot). dbus-run-session stops the bus
 * when the command exits, and gnome-keyring-daemon exits with its bus: nothing is left running.
 *
 * Requirements (true here and on CI, a fresh Debian machine with the project's packages): dbus
 * (dbus-run-session), gnome-keyring, and keytar built from source against libsecret-1-dev. Root
 * is fine: the session bus and the daemon run as the same user as the test. The environment of
 * every command is built from scratch (no DISPLAY, no inherited D-Bus address, LC_ALL=C so the
 * GLib messages the tests read are in English).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

/** How much of a Secret Service the command gets. */
export type SecretService =
  /** A session bus and an unlocked gnome-keyring: the working kiosk. */
  | 'unlocked'
  /** A session bus but no daemon started: D-Bus activates gnome-keyring with nothing unlocked. */
  | 'bus-only'
  /** No session bus at all (no DBUS_SESSION_BUS_ADDRESS, no display to autolaunch one). */
  | 'none';

export interface KeyringRunOptions {
  readonly secretService?: SecretService;
  /** Written to the command's stdin, then closed. */
  readonly input?: string;
  /** Added to the session's environment. */
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

export interface KeyringRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface KeyringSession {
  /** The temp folder: home, XDG directories, keyrings. */
  readonly dir: string;
  /** The environment every command gets (before `secretService` adds or withholds a bus). */
  readonly env: Readonly<Record<string, string>>;
  /** Runs `command args...` to completion. */
  run(command: string, args: readonly string[], options?: KeyringRunOptions): Promise<KeyringRun>;
  /** Starts `command args...` and hands back the process, for interactive use (a pty). */
  spawn(
    command: string,
    args: readonly string[],
    options?: Omit<KeyringRunOptions, 'input' | 'timeoutMs'>,
  ): ChildProcess;
  /** Removes the temp folder. */
  stop(): Promise<void>;
}

/** Exit status of the wrapper when gnome-keyring-daemon itself failed to start. */
const KEYRING_START_FAILED = 97;

const WRAPPER = `
printf '%s' "$KIOSK_TEST_KEYRING_PASSWORD" | gnome-keyring-daemon --unlock --components=secrets --daemonize >/dev/null || exit ${KEYRING_START_FAILED}
unset KIOSK_TEST_KEYRING_PASSWORD
exec "$@"
`;

export async function startKeyringSession(): Promise<KeyringSession> {
  checkPrerequisites();
  const dir = await mkdtemp(join(tmpdir(), 'kiosk-keyring-'));
  const runtime = join(dir, 'runtime');
  for (const sub of ['home', 'data', 'config', 'cache', 'runtime']) {
    await mkdir(join(dir, sub), { recursive: true });
  }
  // gnome-keyring refuses a runtime directory others can enter.
  await chmod(runtime, 0o700);
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: join(dir, 'home'),
    XDG_DATA_HOME: join(dir, 'data'),
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_CACHE_HOME: join(dir, 'cache'),
    XDG_RUNTIME_DIR: runtime,
    LC_ALL: 'C',
  };
  const keyringPassword = randomUUID();

  const spawnIn = (
    command: string,
    args: readonly string[],
    options: Omit<KeyringRunOptions, 'input' | 'timeoutMs'> = {},
  ): ChildProcess => {
    const secretService = options.secretService ?? 'unlocked';
    const childEnv = { ...env, ...options.env };
    const [program, argv] =
      secretService === 'none'
        ? [command, [...args]]
        : secretService === 'bus-only'
          ? ['dbus-run-session', ['--', command, ...args]]
          : ['dbus-run-session', ['--', 'sh', '-c', WRAPPER, 'sh', command, ...args]];
    if (secretService === 'unlocked') childEnv['KIOSK_TEST_KEYRING_PASSWORD'] = keyringPassword;
    // Its own process group, so a timeout can stop the bus and the command together.
    return spawn(program, argv, { env: childEnv, stdio: 'pipe', detached: true });
  };

  return {
    dir,
    env,
    spawn: spawnIn,
    run(command, args, options = {}) {
      return new Promise((resolve, reject) => {
        const child = spawnIn(command, args, options);
        let stdout = '';
        let stderr = '';
        child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
        child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        const timeoutMs = options.timeoutMs ?? 30_000;
        const timer = setTimeout(() => {
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            // Already gone.
          }
          reject(
            new Error(
              `${command} ${args.join(' ')} did not finish within ${timeoutMs} ms in the keyring session\nstdout: ${stdout}\nstderr: ${stderr}`,
            ),
          );
        }, timeoutMs);
        child.on('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
        child.on('close', (code) => {
          clearTimeout(timer);
          if (code === KEYRING_START_FAILED) {
            reject(
              new Error(`gnome-keyring-daemon did not start in the private session:\n${stderr}`),
            );
            return;
          }
          resolve({ code, stdout, stderr });
        });
        child.stdin!.on('error', () => undefined);
        child.stdin!.end(options.input ?? '');
      });
    },
    async stop() {
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function checkPrerequisites(): void {
  const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter((name) => !onPath(name));
  if (missing.length > 0) {
    throw new Error(
      `${missing.join(' and ')} not found: the keytar tests need the Debian packages dbus (dbus-run-session) and gnome-keyring.`,
    );
  }
  const require = createRequire(import.meta.url);
  let addon: string;
  try {
    addon = join(
      dirname(require.resolve('keytar/package.json')),
      'build',
      'Release',
      'keytar.node',
    );
  } catch {
    throw new Error('keytar is not installed: npm install (it is a dependency of the project).');
  }
  if (!existsSync(addon)) {
    throw new Error(
      `${addon} is missing: keytar's native module was not built. Install libsecret-1-dev and pkg-config, then "npm rebuild keytar" with npm_config_nodedir set (. build/env.sh).`,
    );
  }
}

function onPath(name: string): boolean {
  return (process.env['PATH'] ?? '')
    .split(delimiter)
    .some((dir) => dir !== '' && existsSync(join(dir, name)));
}
