import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { type LoadedProfile, ProfileError, loadProfile } from '../profile/index.ts';
import { isCommerceApiError } from '../api/index.ts';
import { createRedactingLogger, type Logger, silentLogger } from '../logging/index.ts';
import { prepareDataDir, StorageError, storageErrorOf } from '../storage/index.ts';

/**
 * What every kioskctl command shares: its streams, the exit codes, the error it throws and the
 * JSON line that reports it, the global flags, and `runCommand`, the wrapper each command runs in.
 *
 * Every command receives kioskctl's argv as typed (its name included). The global flags may come
 * anywhere in it: a technician's script passes the same ones to every command, and a command
 * ignores those it has no use for.
 */

export interface Io {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The exit codes are an interface: scripts on the fleet branch on them. Commands add their own. */
export const exitCodes = {
  ok: 0,
  unexpected: 1,
  /** Refused locally: bad flag, bad input, missing configuration; nothing was sent. */
  invalidRequest: 2,
  /** The API answered with an error. */
  apiError: 3,
  /** No answer: network failure or timeout. */
  network: 4,
  /** The API answered something the contract does not allow. */
  contractViolation: 5,
  /**
   * Storage, for every command that has a data directory or writes a file: the directory cannot
   * be used, the database is empty, foreign, damaged or from a newer build, the disk is full.
   * Nothing was changed. (6 and 7 are each command's own.)
   */
  storage: 8,
} as const;

/** A refusal by the command itself (a bad command line, missing configuration...). */
export class CommandError extends Error {
  readonly code: string;
  readonly exitCode: number;
  constructor(code: string, message: string, exitCode: number = exitCodes.invalidRequest) {
    super(message);
    this.name = 'CommandError';
    this.code = code;
    this.exitCode = exitCode;
  }
}

/** A failure as reported: the fields of the JSON error line, and the exit code. */
export interface Failure {
  readonly code: string;
  /** The HTTP status of the reply, null without one; absent from the line of outbox and print. */
  readonly status?: number | null;
  readonly message: string;
  /** More fields of the line (catalog: the missing scopes of a 403). */
  readonly details?: Readonly<Record<string, unknown>>;
  readonly exitCode: number;
}

/** The exit code of an API client error, as `api`, `catalog` and `credentials` report it. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof CommandError) return error.exitCode;
  if (!isCommerceApiError(error)) return exitCodes.unexpected;
  switch (error.kind) {
    case 'InvalidRequest':
      return 'local' in error && error.local === true
        ? exitCodes.invalidRequest
        : exitCodes.apiError;
    case 'CredentialsRejected':
      // Without a status the credentials were unreadable or malformed: a local configuration fault.
      return error.status === undefined ? exitCodes.invalidRequest : exitCodes.apiError;
    case 'NetworkError':
    case 'Timeout':
      return exitCodes.network;
    case 'ContractViolation':
      return exitCodes.contractViolation;
    default:
      return exitCodes.apiError;
  }
}

/** A command's own refusals, the API client's errors, and anything else as UNEXPECTED. */
export function describeFailure(error: unknown): Failure {
  if (error instanceof CommandError) {
    return { code: error.code, status: null, message: error.message, exitCode: error.exitCode };
  }
  if (isCommerceApiError(error)) {
    return {
      code: error.code,
      status: error.status ?? null,
      message: error.message,
      exitCode: exitCodeFor(error),
    };
  }
  if (error instanceof StorageError) {
    return { code: error.code, status: null, message: error.message, exitCode: exitCodes.storage };
  }
  return {
    code: 'UNEXPECTED',
    status: null,
    message: error instanceof Error ? error.message : String(error),
    exitCode: exitCodes.unexpected,
  };
}

/** The one JSON line a failure prints on stderr: `{"error":{code,status,message}}`. */
export function writeError(io: Io, failure: Failure): void {
  const { code, status, message, details } = failure;
  io.stderr(`${JSON.stringify({ error: { code, status, message, ...details } })}\n`);
}

export interface GlobalFlags {
  /** `--base-url`: the Commerce API. */
  readonly baseUrl: string | undefined;
  /** `--credentials`: a JSON file {"email", "password"}. */
  readonly credentialsFile: string | undefined;
  /** `--data-dir`: the kiosk's data directory. */
  readonly dataDir: string | undefined;
  /** `--cups-server`: the CUPS scheduler. */
  readonly cupsServer: string | undefined;
  /** `--verbose`: redacted JSON log lines on stderr. */
  readonly verbose: boolean;
  /**
   * `--profile`: the integration profile file (else KIOSK_API_PROFILE, else the one saved in
   * Setup, else the default: `profileOf`).
   */
  readonly profile: string | undefined;
}

const globalOptions = {
  'base-url': { type: 'string' },
  credentials: { type: 'string' },
  'data-dir': { type: 'string' },
  'cups-server': { type: 'string' },
  verbose: { type: 'boolean' },
  profile: { type: 'string' },
} as const satisfies ParseArgsOptionsConfig;

/** kioskctl's argv, split into the words of the global flags and all the others, in order. */
function splitGlobalFlags(argv: readonly string[]): { global: string[]; rest: string[] } {
  // Not strict: the command's own flags are unknown here; they stay, with their values, in `rest`.
  const { tokens } = parseArgs({
    args: [...argv],
    options: globalOptions,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const globalIndexes = new Set<number>();
  for (const token of tokens) {
    if (token.kind !== 'option' || !Object.hasOwn(globalOptions, token.name)) continue;
    globalIndexes.add(token.index);
    // `--data-dir /tmp/x`: the value is the next word.
    if (token.value !== undefined && !token.inlineValue) globalIndexes.add(token.index + 1);
  }
  const global: string[] = [];
  const rest: string[] = [];
  argv.forEach((word, index) => (globalIndexes.has(index) ? global : rest).push(word));
  return { global, rest };
}

/** The global flags, wherever they are in argv, and the other words, in order. */
export function parseGlobalFlags(argv: readonly string[]): {
  globals: GlobalFlags;
  rest: string[];
} {
  const { global, rest } = splitGlobalFlags(argv);
  let values;
  try {
    values = parseArgs({ args: global, options: globalOptions, strict: true }).values;
  } catch (error) {
    // parseArgs names the flag ("Option '--data-dir <value>' argument missing"); keep its words.
    throw new CommandError('USAGE', `${messageOf(error)} (kioskctl --help)`);
  }
  return {
    globals: {
      baseUrl: values['base-url'],
      credentialsFile: values.credentials,
      dataDir: values['data-dir'],
      cupsServer: values['cups-server'],
      verbose: values.verbose ?? false,
      profile: values.profile,
    },
    rest,
  };
}

/**
 * The integration profile a command reads and writes the service's 'not shown' records with, by
 * the kiosk app's own rule (`chooseProfile`): `--profile`, else KIOSK_API_PROFILE, else the file
 * an administrator saved in Setup (`savedPath`: `setupProfileOf` in setup-settings.ts reads it
 * from the data directory), else the default. A missing or invalid file is refused before
 * anything is sent. Where it came from is part of the answer: each command says which it used.
 */
export function profileOf(
  globals: GlobalFlags,
  env: Io['env'],
  savedPath?: string | null,
): LoadedProfile {
  try {
    return loadProfile({ flag: globals.profile, env, settingsPath: savedPath });
  } catch (error) {
    if (error instanceof ProfileError) throw new CommandError(error.code, error.message);
    throw error;
  }
}

/** The profile as a command reports it: `{"name","source","path"}`. */
export function profileReport(loaded: LoadedProfile): {
  readonly name: string;
  readonly source: LoadedProfile['source'];
  readonly path: string | null;
} {
  return { name: loaded.profile.name, source: loaded.source, path: loaded.path };
}

/** The command's name: the first word that is neither a flag nor a global flag's value. */
export function commandNameOf(argv: readonly string[]): string | undefined {
  return nameIn(splitGlobalFlags(argv).rest)?.name;
}

function nameIn(words: readonly string[]): { name: string; index: number } | undefined {
  for (const [index, word] of words.entries()) {
    if (word === '--') return undefined;
    if (!word.startsWith('-')) return { name: word, index };
  }
  return undefined;
}

/** A command line as a command sees it. */
export interface CommandLine {
  readonly globals: GlobalFlags;
  /** The name the command was called by (`print` or `printers`...); undefined for none. */
  readonly name: string | undefined;
  /** The command's own words: argv without its name and the global flags. */
  readonly args: readonly string[];
}

/**
 * Runs one command: splits argv into a CommandLine, and turns whatever the command throws into
 * its JSON error line and exit code (`describe` gives a command's own errors their code). A
 * failure of the disk or the database (a StorageError, SQLite's "disk is full" in the middle of a
 * command, ENOSPC) is the storage exit code whatever the command: scripts branch on it.
 */
export async function runCommand(
  argv: readonly string[],
  io: Io,
  command: (line: CommandLine) => Promise<number>,
  describe: (error: unknown) => Failure = describeFailure,
): Promise<number> {
  let dataDir: string | undefined;
  try {
    const { globals, rest } = parseGlobalFlags(argv);
    dataDir = globals.dataDir ?? io.env['KIOSK_DATA_DIR'];
    const named = nameIn(rest);
    const args = named === undefined ? rest : rest.filter((_, index) => index !== named.index);
    return await command({ globals, name: named?.name, args });
  } catch (error) {
    const storage = storageErrorOf(error, dataDir ? `data directory ${dataDir}` : undefined);
    const described = describe(storage ?? error);
    const failure: Failure = storage
      ? { ...described, code: storage.code, message: storage.message, exitCode: exitCodes.storage }
      : described;
    writeError(io, failure);
    return failure.exitCode;
  }
}

/**
 * The data directory a command works in (`chosen` by its caller, else `--data-dir`, else
 * KIOSK_DATA_DIR), checked and created (0700) before anything is read or opened in it: a path
 * that cannot be one (a file, `/proc/...`, not writable) fails here, naming it, with exit 8.
 */
export function dataDirOf(globals: GlobalFlags, env: Io['env'], chosen?: string): string {
  const dataDir = chosen ?? globals.dataDir ?? env['KIOSK_DATA_DIR'];
  if (dataDir === undefined || dataDir === '') {
    throw new CommandError(
      'CONFIG',
      'no data directory: pass --data-dir <dir> or set KIOSK_DATA_DIR',
    );
  }
  return prepareDataDir(dataDir);
}

/** A command's own flags, strictly: an unknown one is a USAGE error naming it. */
export function parseFlags<const O extends ParseArgsOptionsConfig>(
  args: readonly string[],
  options: O,
  help: string,
) {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new CommandError('USAGE', `${messageOf(error)} (${help})`);
  }
}

/** Refuses, naming it, a flag the subcommand does not take (`where`: "outbox drain"). */
export function refuseFlagsBeyond(
  values: Readonly<Record<string, unknown>>,
  allowed: readonly string[],
  where: string,
): void {
  for (const [flag, value] of Object.entries(values)) {
    if (value !== undefined && !allowed.includes(flag))
      throw new CommandError('USAGE', `--${flag} does not apply to ${where}`);
  }
}

/** Redacted JSON log lines on stderr with --verbose; nothing without. */
export function loggerFor(globals: GlobalFlags, io: Io, component: string): Logger {
  return globals.verbose
    ? createRedactingLogger({
        sink: (line) => io.stderr(`${line}\n`),
        level: 'debug',
        base: { component },
      })
    : silentLogger;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
