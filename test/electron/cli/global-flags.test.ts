import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { demoProducts, demoSales } from '../../../sandbox/data/demo.ts';
import { exitCodes } from '../../../electron/cli/command.ts';
import { startPrivateCups, type PrivateCups } from '../../support/cups.ts';
import { type TestSandbox, startTestSandbox } from '../api/support/sandbox.ts';
import { inProcess, kioskctl } from './support.ts';

/**
 * The global flags are kioskctl's, not one command's: a technician's script passes the same ones
 * to every command. Each command takes each of them before its name, before its own flags and
 * after them, against the real sandbox and a private CUPS, and does its job (exit 0).
 */

let sandbox: TestSandbox;
let cups: PrivateCups;
let dir: string;
let dataDir: string;
let credentialsFile: string;
let provisionedFile: string;

beforeAll(async () => {
  [sandbox, cups, dir] = await Promise.all([
    startTestSandbox(),
    startPrivateCups(),
    mkdtemp(join(tmpdir(), 'kioskctl-global-')),
  ]);
  dataDir = join(dir, 'data');
  credentialsFile = join(dir, 'credentials.json');
  provisionedFile = join(dir, 'provisioned.json');
  const account = JSON.stringify({ email: sandbox.full.email, password: sandbox.full.password });
  await Promise.all([writeFile(credentialsFile, account), writeFile(provisionedFile, account)]);
  // A provisioned file readable by others is refused: the fleet's is 0600.
  await chmod(provisionedFile, 0o600);
}, 60_000);

afterAll(async () => {
  await Promise.all([sandbox?.close(), cups?.stop()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Every global flag with a value that works; the environment gives the same, flag or not. */
function globalFlags(): Record<string, readonly string[]> {
  return {
    '--base-url': ['--base-url', sandbox.baseUrl],
    '--credentials': ['--credentials', credentialsFile],
    '--data-dir': ['--data-dir', dataDir],
    '--cups-server': ['--cups-server', cups.server],
    '--verbose': ['--verbose'],
  };
}

function environment(): Record<string, string> {
  return {
    KIOSK_API_BASE_URL: sandbox.baseUrl,
    KIOSK_API_EMAIL: sandbox.full.email,
    KIOSK_API_PASSWORD: sandbox.full.password,
    KIOSK_DATA_DIR: dataDir,
    KIOSK_CUPS_SERVER: cups.server,
  };
}

interface CommandCase {
  /** The command's name and positional words. */
  readonly words: () => readonly string[];
  /** Its own flags. */
  readonly own: () => readonly string[];
}

const commands: Readonly<Record<string, CommandCase>> = {
  api: {
    words: () => ['api', 'getProduct'],
    own: () => ['--param', `productId=${demoProducts.availableEverywhere}`],
  },
  catalog: { words: () => ['catalog', 'search', 'glacons'], own: () => ['--limit', '2'] },
  outbox: { words: () => ['outbox', 'list'], own: () => ['--state', 'pending'] },
  print: {
    words: () => ['print', 'invoice', demoSales.withInvoice],
    own: () => ['--copies', '1'],
  },
  printers: { words: () => ['printers'], own: () => [] },
  credentials: {
    words: () => ['credentials', 'status'],
    own: () => ['--provisioned-credentials', provisionedFile],
  },
};

const positions = ['before the command', 'before its own flags', 'after its own flags'] as const;

function argvOf(command: CommandCase, flag: readonly string[], position: string): string[] {
  const [words, own] = [command.words(), command.own()];
  switch (position) {
    case 'before the command':
      return [...flag, ...words, ...own];
    case 'before its own flags':
      return [...words, ...flag, ...own];
    default:
      return [...words, ...own, ...flag];
  }
}

describe('every command takes every global flag', () => {
  test.each(Object.keys(commands))(
    '%s',
    async (name) => {
      const command = commands[name]!;
      for (const flag of Object.values(globalFlags())) {
        for (const position of positions) {
          const argv = argvOf(command, flag, position);
          const run = await inProcess(argv, environment());
          const label = `${argv.join(' ')}: ${run.stderr}`;
          expect(run.stderr, label).not.toMatch(/Unknown option|does not apply/);
          expect(run.code, label).toBe(exitCodes.ok);
          expect(() => JSON.parse(run.stdout) as unknown, label).not.toThrow();
        }
      }
    },
    60_000,
  );

  // Healthy only once the mirror is synchronised (a mirror never synchronised is its exit 23).
  test('status', async () => {
    const sync = await inProcess(['catalog', 'sync'], environment());
    expect(sync.code, sync.stderr).toBe(exitCodes.ok);
    const status: CommandCase = { words: () => ['status'], own: () => ['--json'] };
    for (const flag of Object.values(globalFlags())) {
      for (const position of positions) {
        const argv = argvOf(status, flag, position);
        const run = await inProcess(argv, environment());
        const label = `${argv.join(' ')}: ${run.stdout} ${run.stderr}`;
        expect(run.stderr, label).not.toMatch(/Unknown option|does not apply/);
        expect(run.code, label).toBe(exitCodes.ok);
        expect(JSON.parse(run.stdout), label).toMatchObject({ verdict: 'healthy' });
      }
    }
  }, 120_000);

  test('a global flag without its value is refused, named, on any command', async () => {
    for (const argv of [
      ['outbox', 'list', '--data-dir'],
      ['printers', '--cups-server'],
      ['api', 'ping', '--base-url'],
    ]) {
      const run = await inProcess(argv, environment());
      expect(run.code, run.stderr).toBe(exitCodes.invalidRequest);
      const { error } = JSON.parse(run.stderr) as { error: { code: string; message: string } };
      expect(error.code).toBe('USAGE');
      expect(error.message).toContain(argv.at(-1));
    }
  });
});

describe('the kioskctl program', () => {
  test('print and api with the same global flags a script gives every command', async () => {
    const everyFlag = Object.values(globalFlags()).flat();
    const [print, api] = await Promise.all([
      kioskctl(['print', 'invoice', demoSales.withInvoice, ...everyFlag], {}),
      kioskctl(['api', 'listShops', ...everyFlag], {}),
    ]);
    expect(print.code, print.stderr).toBe(exitCodes.ok);
    expect(JSON.parse(print.stdout)).toMatchObject({ kind: 'invoice', state: 'completed' });
    expect(api.code, api.stderr).toBe(exitCodes.ok);
    expect(JSON.parse(api.stdout)).toMatchObject({ data: expect.any(Array) });
  }, 30_000);
});
