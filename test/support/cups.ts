/**
 * A private CUPS scheduler for tests: its own ServerRoot, spool, state and logs in a temp folder,
 * listening on a free 127.0.0.1 port, with a cups-pdf queue whose output the tests can read.
 *
 * Requirements (true here and on CI: a fresh Debian machine, same packages, tests run as root):
 * - root. The cups-pdf backend is installed 0700 root, and cupsd runs a backend as root only when
 *   it is not group/world-executable and cupsd itself is root. cupsd drops filters to `User lp`.
 * - cups-pdf reads its settings only from /etc/cups (CP_CONFIG_PATH is compiled in), as
 *   `cups-pdf-<suffix>.conf` for a `cups-pdf:/<suffix>` device. So one small file per run is
 *   written to /etc/cups with a unique suffix and removed on stop (and on process exit; stale
 *   ones from a killed run are swept at the next start).
 * - The temp folder is made in /tmp (not $TMPDIR, which may sit under a 0700 home) and is 0755:
 *   filters run as `lp` and must reach the PPDs in the ServerRoot.
 * - No AppArmor confinement of /usr/sbin/cupsd (true in containers like these machines). On a
 *   host that enforces Debian's cupsd profile, the temp ServerRoot is outside what the profile
 *   allows and cupsd fails to start; the error then quotes cupsd's own log.
 *
 * Queues:
 * - `pdfQueue` (system default): idle cups-pdf; output lands in `outputDir` as
 *   `<title>-job_<N>.pdf` (the PPD's TitlePref is switched to the job title: cups-pdf 3.0.1 reads
 *   the PostScript %%Title past its end and appends garbage to the name).
 * - `offlineQueue`: stopped, "Printer is offline" (printer-state-reasons offline-report).
 * - `noPaperQueue`: stopped, "Out of paper" (media-empty-error).
 * - `slowQueue`: enabled, but its device is a socket:// port nobody listens on, so a job stays
 *   `processing` (the backend keeps retrying) until cancelled.
 * - `failingFilterQueue`: enabled, but its PPD sends every PDF through a filter that fails with
 *   `failingFilterMessage`, as a driver does on a document it cannot convert. CUPS then stops
 *   the job (`processing-stopped`, job-completed-with-errors) while the printer looks idle.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freePort } from './free-port.ts';

const execFileAsync = promisify(execFile);

const CUPS_PDF_PPD = '/usr/share/ppd/cups-pdf/CUPS-PDF_opt.ppd';
const CUPS_PDF_BACKEND = '/usr/lib/cups/backend/cups-pdf';
const CUPS_CONFIG_DIR = '/etc/cups';
const SUFFIX_PREFIX = 'kiosktest';
const FAILING_FILTER_MESSAGE = 'cannot convert: unsupported PDF version';

export interface PrivateCups {
  /** `127.0.0.1:<port>`: give it to CupsBackend({ server }) or as CUPS_SERVER. */
  readonly server: string;
  readonly pdfQueue: string;
  readonly offlineQueue: string;
  readonly noPaperQueue: string;
  readonly slowQueue: string;
  readonly failingFilterQueue: string;
  /** What the failing filter says on stderr (after `ERROR: `). */
  readonly failingFilterMessage: string;
  /** Where cups-pdf writes `<title>-job_<N>.pdf`. */
  readonly outputDir: string;
  /** Runs lpstat against this scheduler (C locale) and returns its stdout. */
  lpstat(args: readonly string[]): Promise<string>;
  /** Every job id (`queue-N`) the scheduler knows, finished or not: to show nothing was sent. */
  allJobIds(): Promise<string[]>;
  /** Waits for cups-pdf's output of job N and returns its path. */
  waitForOutput(jobNumber: number | string, timeoutMs?: number): Promise<string>;
  outputs(): Promise<string[]>;
  /** Stops cupsd only (same port, same configuration), to play a scheduler that went away. */
  stopScheduler(): Promise<void>;
  /** Starts it again after stopScheduler(); resolves once it answers. */
  startScheduler(): Promise<void>;
  /** Stops cupsd and removes every file this helper made, /etc/cups included. */
  stop(): Promise<void>;
}

export async function startPrivateCups(): Promise<PrivateCups> {
  checkPrerequisites();
  sweepStaleConfigs();
  let lastError: unknown;
  // The free port is found by binding and releasing it, so another process may take it first.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce();
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

function checkPrerequisites(): void {
  if (process.getuid?.() !== 0) {
    throw new Error(
      'The printing tests start a private cupsd and need root: the cups-pdf backend is 0700 root and reads its settings from /etc/cups.',
    );
  }
  for (const path of ['/usr/sbin/cupsd', CUPS_PDF_BACKEND, CUPS_PDF_PPD]) {
    if (!existsSync(path)) {
      throw new Error(
        `${path} is missing: install the Debian packages cups and printer-driver-cups-pdf.`,
      );
    }
  }
}

/** Removes cups-pdf configs left in /etc/cups by test processes that no longer exist. */
function sweepStaleConfigs(): void {
  for (const name of readdirSync(CUPS_CONFIG_DIR)) {
    const match = new RegExp(`^cups-pdf-${SUFFIX_PREFIX}(\\d+)x[0-9a-f]+\\.conf$`).exec(name);
    if (!match?.[1]) continue;
    if (!processAlive(Number(match[1]))) rmSync(join(CUPS_CONFIG_DIR, name), { force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function startOnce(): Promise<PrivateCups> {
  const base = await mkdtemp('/tmp/kiosk-cups-');
  await chmod(base, 0o755);
  const dirs = {
    root: join(base, 'root'),
    cache: join(base, 'cache'),
    state: join(base, 'state'),
    spool: join(base, 'spool'),
    log: join(base, 'log'),
    out: join(base, 'out'),
    pdfSpool: join(base, 'cups-pdf-spool'),
  };
  for (const dir of Object.values(dirs)) await mkdir(dir, { recursive: true, mode: 0o755 });
  await mkdir(join(dirs.root, 'ppd'), { mode: 0o755 });
  await mkdir(join(dirs.spool, 'tmp'), { mode: 0o755 });

  const port = await freePort();
  const deadPort = await freePort();
  const server = `127.0.0.1:${port}`;
  const suffix = `${SUFFIX_PREFIX}${process.pid}x${Math.floor(Math.random() * 0xffffffff).toString(16)}`;
  const cupsPdfConfig = join(CUPS_CONFIG_DIR, `cups-pdf-${suffix}.conf`);
  const queues = {
    pdf: 'kiosk-pdf',
    offline: 'kiosk-offline',
    noPaper: 'kiosk-nopaper',
    slow: 'kiosk-slow',
    failingFilter: 'kiosk-badfilter',
  };

  await writeFile(
    join(dirs.root, 'cupsd.conf'),
    [
      'LogLevel warn',
      'MaxLogSize 0',
      `Listen ${server}`,
      'Browsing No',
      'BrowseLocalProtocols none',
      'DefaultShared No',
      'WebInterface No',
      'DefaultAuthType None',
      // Nothing here is reachable from outside 127.0.0.1, and the tests must cancel and inspect
      // jobs without CUPS's local-certificate authentication.
      '<Location />',
      '  Order allow,deny',
      '  Allow from 127.0.0.1',
      '</Location>',
      '<Policy default>',
      '  JobPrivateAccess all',
      '  JobPrivateValues none',
      '  SubscriptionPrivateAccess all',
      '  SubscriptionPrivateValues none',
      '  <Limit All>',
      '    Order deny,allow',
      '  </Limit>',
      '</Policy>',
      '',
    ].join('\n'),
  );
  await writeFile(
    join(dirs.root, 'cups-files.conf'),
    [
      `ServerRoot ${dirs.root}`,
      `CacheDir ${dirs.cache}`,
      `StateDir ${dirs.state}`,
      `RequestRoot ${dirs.spool}`,
      `TempDir ${join(dirs.spool, 'tmp')}`,
      'ServerBin /usr/lib/cups',
      'DataDir /usr/share/cups',
      `AccessLog ${join(dirs.log, 'access_log')}`,
      `ErrorLog ${join(dirs.log, 'error_log')}`,
      `PageLog ${join(dirs.log, 'page_log')}`,
      // cupsd runs as root (it must, to run the 0700 cups-pdf backend) and drops filters to lp.
      'User lp',
      'Group lp',
      'SystemGroup root',
      'FileDevice No',
      '',
    ].join('\n'),
  );

  const ppd = (await readFile(CUPS_PDF_PPD, 'utf8')).replace(
    /^\*DefaultTitlePref: 0/m,
    '*DefaultTitlePref: 1',
  );
  for (const queue of Object.values(queues)) {
    await writeFile(join(dirs.root, 'ppd', `${queue}.ppd`), ppd, { mode: 0o644 });
  }
  // cupsd runs a filter named by absolute path if root owns it and only root may write it.
  const failingFilter = join(base, 'kiosk-failing-filter');
  await writeFile(
    failingFilter,
    `#!/bin/sh\ncat > /dev/null\necho "ERROR: ${FAILING_FILTER_MESSAGE}" >&2\nexit 1\n`,
    { mode: 0o755 },
  );
  await writeFile(
    join(dirs.root, 'ppd', `${queues.failingFilter}.ppd`),
    `${ppd.replace(/^\*cupsFilter2?:.*$/gm, '')}\n*cupsFilter2: "application/pdf application/vnd.cups-pdf 0 ${failingFilter}"\n`,
    { mode: 0o644 },
  );
  await writeFile(
    join(dirs.root, 'printers.conf'),
    [
      printerEntry(queues.pdf, { isDefault: true, uri: `cups-pdf:/${suffix}`, stopped: false }),
      printerEntry(queues.offline, {
        uri: `cups-pdf:/${suffix}`,
        stopped: true,
        message: 'Printer is offline',
        reason: 'offline-report',
      }),
      printerEntry(queues.noPaper, {
        uri: `cups-pdf:/${suffix}`,
        stopped: true,
        message: 'Out of paper',
        reason: 'media-empty-error',
      }),
      printerEntry(queues.slow, { uri: `socket://127.0.0.1:${deadPort}`, stopped: false }),
      printerEntry(queues.failingFilter, { uri: `cups-pdf:/${suffix}`, stopped: false }),
    ].join(''),
    { mode: 0o600 },
  );
  await writeFile(
    cupsPdfConfig,
    [
      `Out ${dirs.out}`,
      `AnonDirName ${dirs.out}`,
      `Spool ${dirs.pdfSpool}`,
      `Log ${dirs.log}`,
      // The Debian default group lpadmin may not exist; root always does.
      'Grp root',
      'LogType 1',
      '',
    ].join('\n'),
    { mode: 0o644 },
  );

  const cupsdArgs = [
    '-f',
    '-c',
    join(dirs.root, 'cupsd.conf'),
    '-s',
    join(dirs.root, 'cups-files.conf'),
  ];
  let output = '';
  let child: ChildProcess | undefined;
  // A test process that dies without stop() must not leave a scheduler or a file in /etc/cups.
  const onExit = (): void => {
    child?.kill('SIGKILL');
    rmSync(cupsPdfConfig, { force: true });
  };
  process.once('exit', onExit);
  const startScheduler = async (): Promise<void> => {
    if (child && child.exitCode === null && child.signalCode === null) return;
    const started = spawn('/usr/sbin/cupsd', cupsdArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitUntilRunning(started, server, () => output, join(dirs.log, 'error_log'));
  };
  const stopScheduler = async (): Promise<void> => {
    if (child) await terminate(child);
  };

  const lpstat = async (args: readonly string[]): Promise<string> => {
    const { stdout } = await execFileAsync('lpstat', [...args], {
      env: { ...process.env, CUPS_SERVER: server, LC_ALL: 'C', LANG: 'C' },
      timeout: 10_000,
    });
    return stdout;
  };

  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', onExit);
    await stopScheduler();
    await rm(cupsPdfConfig, { force: true });
    await rm(base, { recursive: true, force: true });
  };

  try {
    await startScheduler();
  } catch (error) {
    await stop();
    throw error;
  }

  const outputs = async (): Promise<string[]> => (await readdir(dirs.out)).sort();
  return {
    server,
    pdfQueue: queues.pdf,
    offlineQueue: queues.offline,
    noPaperQueue: queues.noPaper,
    slowQueue: queues.slow,
    failingFilterQueue: queues.failingFilter,
    failingFilterMessage: FAILING_FILTER_MESSAGE,
    outputDir: dirs.out,
    lpstat,
    async allJobIds() {
      const listing = await lpstat(['-W', 'all', '-o']);
      return listing
        .split('\n')
        .map((line) => line.split(/\s+/)[0] ?? '')
        .filter((id) => id !== '');
    },
    async waitForOutput(jobNumber, timeoutMs = 15_000) {
      const suffixName = `-job_${jobNumber}.pdf`;
      const deadline = Date.now() + timeoutMs;
      let lastSize = -1;
      while (Date.now() < deadline) {
        const name = (await outputs()).find((file) => file.endsWith(suffixName));
        if (name) {
          const path = join(dirs.out, name);
          // Ghostscript writes the file in place; wait for it to stop growing.
          const { size } = await stat(path);
          if (size > 0 && size === lastSize) return path;
          lastSize = size;
        }
        await sleep(100);
      }
      throw new Error(`cups-pdf wrote no output for job ${jobNumber} in ${dirs.out}`);
    },
    outputs,
    stopScheduler,
    startScheduler,
    stop,
  };
}

function printerEntry(
  name: string,
  options: {
    isDefault?: boolean;
    uri: string;
    stopped: boolean;
    message?: string;
    reason?: string;
  },
): string {
  const tag = options.isDefault ? 'DefaultPrinter' : 'Printer';
  return [
    `<${tag} ${name}>`,
    `Info ${name}`,
    `DeviceURI ${options.uri}`,
    `State ${options.stopped ? 'Stopped' : 'Idle'}`,
    ...(options.message ? [`StateMessage ${options.message}`] : []),
    ...(options.reason ? [`Reason ${options.reason}`] : []),
    'Accepting Yes',
    'Shared No',
    'JobSheets none none',
    `</${tag}>`,
    '',
  ].join('\n');
}

async function waitUntilRunning(
  child: ChildProcess,
  server: string,
  output: () => string,
  errorLog: string,
): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    try {
      const { stdout } = await execFileAsync('lpstat', ['-r'], {
        env: { ...process.env, CUPS_SERVER: server, LC_ALL: 'C', LANG: 'C' },
        timeout: 5_000,
      });
      // `lpstat -r` exits 0 even when nothing answers.
      if (/scheduler is running/.test(stdout)) return;
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  const log = await readFile(errorLog, 'utf8').catch(() => '');
  throw new Error(
    `private cupsd did not start on ${server} (exit ${child.exitCode ?? child.signalCode ?? 'none'}):\n${output()}\n${log.split('\n').slice(-20).join('\n')}`,
  );
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timedOut = await Promise.race([exited.then(() => false), sleep(10_000).then(() => true)]);
  if (timedOut) {
    child.kill('SIGKILL');
    await exited;
  }
}
