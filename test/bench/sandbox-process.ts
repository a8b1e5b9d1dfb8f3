import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * The sandbox in a process of its own, as the service runs on a machine of its own: its catalogue
 * (about 210 MB of heap for 100,000 products) then weighs on no garbage collection of the process
 * measured, and its request handling takes no turn of that process's event loop.
 */

const sandboxMain = fileURLToPath(new URL('../../sandbox/main.ts', import.meta.url));

export interface SandboxAccount {
  readonly email: string;
  readonly password: string;
}

export interface SandboxProcess {
  readonly baseUrl: string;
  /** The account with this address (the sandbox prints every account it has). */
  account(email: string): SandboxAccount;
  stop(): Promise<void>;
}

/** The first line a child writes on stdout; rejects if it exits before writing one. */
export async function firstLine(child: ChildProcess): Promise<string> {
  if (child.stdout === null) throw new Error('child without stdout');
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`child exited with ${code} before answering`))),
  );
  const lines = createInterface({ input: child.stdout });
  const line = new Promise<string>((resolve) => lines.once('line', resolve));
  try {
    return await Promise.race([line, exited]);
  } finally {
    lines.close();
  }
}

export async function startSandboxProcess(products: number): Promise<SandboxProcess> {
  // Its request log (stderr) is not what a benchmark reports.
  const child = spawn(
    process.execPath,
    [sandboxMain, '--products', String(products), '--seed', '1'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  let ready: { baseUrl: string; accounts: SandboxAccount[] };
  try {
    ready = JSON.parse(await firstLine(child)) as typeof ready;
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    baseUrl: ready.baseUrl,
    account(email) {
      const found = ready.accounts.find((candidate) => candidate.email === email);
      if (found === undefined) throw new Error(`the sandbox has no account ${email}`);
      return { email: found.email, password: found.password };
    },
    stop,
  };
}
