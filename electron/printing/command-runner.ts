import { execFile } from 'node:child_process';

export interface CommandResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs?: number;
}

/**
 * Runs a program with an argument vector, never through a shell, so printer names and titles are
 * data, not syntax. A non-zero exit is a result (the caller reads stderr to say why); only "could
 * not run at all" rejects, with the system error code preserved.
 */
export type CommandRunner = (
  file: string,
  args: readonly string[],
  options?: RunOptions,
) => Promise<CommandResult>;

export class CommandFailed extends Error {
  override readonly name = 'CommandFailed';
  /** ENOENT (not installed), EACCES, or TIMEOUT. */
  readonly systemCode: string;
  readonly file: string;
  constructor(file: string, systemCode: string, message: string) {
    super(message);
    this.file = file;
    this.systemCode = systemCode;
  }
}

export const runCommand: CommandRunner = (file, args, options = {}) =>
  new Promise((resolve, reject) => {
    execFile(
      file,
      [...args],
      {
        env: { ...process.env, ...options.env },
        timeout: options.timeoutMs ?? 15_000,
        killSignal: 'SIGKILL',
        maxBuffer: 4 * 1024 * 1024,
        encoding: 'utf8',
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (!error) {
          resolve({ exitCode: 0, stdout, stderr });
          return;
        }
        const systemCode = (error as NodeJS.ErrnoException).code;
        if (typeof systemCode === 'string') {
          reject(new CommandFailed(file, systemCode, `${file}: ${error.message}`));
          return;
        }
        if (error.killed) {
          reject(new CommandFailed(file, 'TIMEOUT', `${file} did not finish in time`));
          return;
        }
        resolve({ exitCode: typeof error.code === 'number' ? error.code : 1, stdout, stderr });
      },
    );
  });
