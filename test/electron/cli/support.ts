import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { main } from '../../../electron/cli/kioskctl.ts';

/** kioskctl run two ways: as the technician's process, or its `main()` in this process. */

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const cli = fileURLToPath(new URL('../../../electron/cli/kioskctl.ts', import.meta.url));

/** `kioskctl` as a technician runs it: a child process of this Node, with only `env` (and PATH). */
export function kioskctl(args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `main()` in this process, with captured streams: the same code without the spawn cost. */
export async function inProcess(
  argv: readonly string[],
  env: Record<string, string>,
): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env,
  });
  return { code, stdout, stderr };
}
