/**
 * The package as an integrator gets it: `npm pack` of the built `dist/`, and npm run in a folder
 * of its own. Installs take what the project's own `npm ci` already put in npm's cache.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);

export interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to its end, whatever its exit code; never rejects for a non-zero exit. */
export async function outcome(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number },
): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      timeout: options.timeout ?? 120_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string; signal?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : -1,
      stdout: failed.stdout ?? '',
      stderr: `${failed.stderr ?? ''}${failed.signal ? `\nkilled by ${failed.signal}` : ''}`,
    };
  }
}

/** Runs npm and fails with its output when it fails. */
export async function npm(cwd: string, args: readonly string[]): Promise<string> {
  const result = await outcome('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    timeout: 300_000,
  });
  if (result.code !== 0) {
    throw new Error(`npm ${args.join(' ')} failed (${result.code}):\n${result.stderr}`);
  }
  return result.stdout;
}

/** The built package must exist: `npm test` builds it first (`npm run build`). */
export function requireBuild(): void {
  if (!existsSync(join(ROOT, 'dist', 'electron', 'exports', 'main.js'))) {
    throw new Error('dist/ is not built: run `npm run build` first (npm test does)');
  }
}

/** `npm pack` of the project into a new temporary folder; the tarball's path. */
export async function packTarball(): Promise<string> {
  requireBuild();
  const destination = await mkdtemp(join(tmpdir(), 'kiosk-pack-'));
  const [packed] = JSON.parse(
    await npm(ROOT, ['pack', '--ignore-scripts', '--json', '--pack-destination', destination]),
  ) as { filename: string }[];
  if (packed === undefined) throw new Error('npm pack wrote no tarball');
  return join(destination, packed.filename);
}
