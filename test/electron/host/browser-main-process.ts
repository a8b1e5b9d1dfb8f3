import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { KioskApi } from '../../../shared/ipc/contract.ts';
import { loadLoopbackClient, pageFetch } from './loopback-client.ts';

/**
 * `npm start` without Electron, as a test runs it: electron/host/browser-main.ts in a child
 * process with only the environment given (the caller's KIOSK_* and D-Bus session left out, so
 * the machine's own configuration or keychain never decides a test), and the kiosk surface the
 * page gets over the loopback host, token included.
 */

const main = fileURLToPath(new URL('../../../electron/host/browser-main.ts', import.meta.url));

export interface BrowserMainRun {
  /** stdout up to and including the `kiosk: open <url>` line. */
  readonly banner: string;
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** The surface the page uses, over the host's HTTP with its token and Origin. */
  readonly kiosk: KioskApi;
  /** SIGTERM, then the exit. */
  stop(): Promise<void>;
}

function childEnv(env: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env, KIOSK_PORT: '0' };
  for (const name of Object.keys(base)) {
    if (name.startsWith('KIOSK_') && name !== 'KIOSK_PORT') delete base[name];
  }
  delete base['DBUS_SESSION_BUS_ADDRESS'];
  return { ...base, ...env };
}

/** How a test starts the process: `shell` runs first in `sh -c` (a `ulimit -n`, for one). */
export interface LaunchOptions {
  readonly shell?: string;
}

function launch(
  env: Readonly<Record<string, string>>,
  options: LaunchOptions = {},
): {
  child: ChildProcess;
  output: () => { stdout: string; stderr: string };
} {
  const child =
    options.shell === undefined
      ? spawn(process.execPath, [main], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('/bin/sh', ['-c', `${options.shell}; exec "$0" "$@"`, process.execPath, main], {
          env: childEnv(env),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return { child, output: () => ({ stdout, stderr }) };
}

/** Starts the browser host and resolves once it printed the URL to open. */
export async function startBrowserMain(
  env: Readonly<Record<string, string>>,
  options: LaunchOptions = {},
): Promise<BrowserMainRun> {
  const { child, output } = launch(env, options);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  };
  let url: URL;
  try {
    url = await new Promise<URL>((resolve, reject) => {
      const look = () => {
        const match = /kiosk: open (\S+)\n/.exec(output().stdout);
        if (match) resolve(new URL(match[1]!));
      };
      child.stdout!.on('data', look);
      child.once('exit', (code) =>
        reject(new Error(`browser-main exited with ${code} before its URL: ${output().stderr}`)),
      );
      look();
    });
  } catch (error) {
    await stop();
    throw error;
  }
  const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
  const createLoopbackClient = await loadLoopbackClient();
  return {
    banner: output().stdout,
    origin: url.origin,
    kiosk: createLoopbackClient({ origin: url.origin, token, fetch: pageFetch(url.origin) }),
    stop,
  };
}

/** Runs browser-main to its exit (a start it refuses): the code and what it printed. */
export async function runBrowserMainToExit(
  env: Readonly<Record<string, string>>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { child, output } = launch(env);
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, ...output() };
}
