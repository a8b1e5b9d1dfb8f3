#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { type DialectName, dialectNames } from './dialects/index.ts';
import { startSandbox } from './index.ts';

/**
 * `node sandbox/main.ts --port <p> [--seed <n>] [--products <n>] [--control] [--token-ttl <s>]
 *  [--activity-interval <ms>] [--dialect default|alternate|minimal] [--empty-usages]`
 * Prints exactly one JSON line on stdout once listening (the base URL and the seeded accounts);
 * everything else, logs included, goes to stderr. A bad flag exits with code 2.
 */

const usage = `usage: node sandbox/main.ts [--port <p>] [--seed <n>] [--products <n>] [--control] [--token-ttl <seconds>] [--activity-interval <ms>] [--dialect default|alternate|minimal] [--empty-usages]
  --port               TCP port on 127.0.0.1 (0, the default, picks a free one)
  --seed               seed of the demo data (default 1)
  --products           catalogue size (default: the demo catalogue)
  --control            serve the /__sandbox/ control surface (faults, clock, accounts, ledger)
  --token-ttl          token lifetime in seconds (default 900)
  --activity-interval  advance the simulated store activity one step every <ms> milliseconds
  --dialect            how the records, parameters and debit body the spec leaves 'not shown' are
                       shaped: default (shared/api), alternate (sandbox/dialects/alternate.profile.json)
                       or minimal (only what the spec shows, unknown parameters refused:
                       sandbox/dialects/minimal.profile.json)
  --empty-usages       every gift card answers an empty usage list (debits still applied), as many
                       real services do`;

class UsageError extends Error {}

function integer(
  name: string,
  text: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new UsageError(`--${name} must be a whole number, got "${text}"`);
  const value = Number(text);
  if (value < min || value > max)
    throw new UsageError(`--${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function parseOptions(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        seed: { type: 'string' },
        products: { type: 'string' },
        control: { type: 'boolean', default: false },
        'token-ttl': { type: 'string' },
        'activity-interval': { type: 'string' },
        dialect: { type: 'string' },
        'empty-usages': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values } = parsed;
  const port = integer('port', values.port, 0, 65535);
  const seed = integer('seed', values.seed, 0, 0xffffffff);
  const products = integer('products', values.products, 1, 1_000_000);
  const tokenTtlSeconds = integer('token-ttl', values['token-ttl'], 1, 31 * 24 * 3600);
  const activityIntervalMs = integer(
    'activity-interval',
    values['activity-interval'],
    1,
    24 * 3600 * 1000,
  );
  const dialect = values.dialect;
  if (dialect !== undefined && !(dialectNames as readonly string[]).includes(dialect))
    throw new UsageError(`--dialect must be one of ${dialectNames.join(', ')}, got "${dialect}"`);
  return {
    help: values.help,
    options: {
      control: values.control,
      ...(values['empty-usages'] ? { emptyUsages: true } : {}),
      ...(port === undefined ? {} : { port }),
      ...(seed === undefined ? {} : { seed }),
      ...(products === undefined ? {} : { products }),
      ...(tokenTtlSeconds === undefined ? {} : { tokenTtlSeconds }),
      ...(activityIntervalMs === undefined ? {} : { activityIntervalMs }),
      ...(dialect === undefined ? {} : { dialect: dialect as DialectName }),
    },
  };
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`sandbox: ${error.message}\n${usage}\n`);
    process.exitCode = 2;
    return;
  }
  if (parsed.help) {
    process.stderr.write(`${usage}\n`);
    return;
  }

  const sandbox = await startSandbox({
    ...parsed.options,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(
    `${JSON.stringify({ event: 'listening', baseUrl: sandbox.baseUrl, dialect: sandbox.dialect, accounts: sandbox.accounts })}\n`,
  );

  const stop = (signal: NodeJS.Signals) => {
    process.stderr.write(`${JSON.stringify({ level: 'info', msg: 'stopping', signal })}\n`);
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`sandbox: failed to stop: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
