import { writeFile } from 'node:fs/promises';
import type { ContractReport, ValueReport } from '../../shared/profile/index.ts';
import {
  ContractDocumentError,
  type ImportResult,
  checkContract,
  importContract,
} from '../contract/index.ts';
import type { LoadedProfile } from '../profile/index.ts';
import { connectApi, withSavedBaseUrl } from './api-connection.ts';
import { recordUsageCheckIn } from '../outbox/index.ts';
import { kioskSchema } from '../schema.ts';
import { openDatabase, prepareDataDir } from '../storage/index.ts';
import {
  CommandError,
  type CommandLine,
  type Io,
  exitCodes,
  loggerFor,
  parseFlags,
  profileReport,
  runCommand,
} from './command.ts';
import { setupProfileOf, setupSettingsOf } from './setup-settings.ts';

/**
 * `kioskctl contract`: how the configured Commerce API answers what the kiosk reads (`check`),
 * and how the vendor's own contract document differs from the kiosk's assumptions (`import`).
 * The integrator's loop: import, check, adjust the profile, check again.
 */

export const contractExitCodes = {
  ...exitCodes,
  /** check: a value the kiosk needs does not resolve with this profile. */
  incomplete: 9,
  /** import: the vendor's document differs from what the kiosk assumes. */
  differs: 10,
  /** check: the service refused a read the kiosk makes (a 4xx: a parameter, a scope, a route). */
  readRefused: 11,
} as const;

export const contractUsage = `usage:
  kioskctl [global flags] contract check [--gift-card <id>] [--customer <id>] [--sale <id>] [--json]
      calls every read operation the kiosk makes, with the parameters the kiosk sends (ids from
      the list routes, or those given; nothing written) and says, for each value the integration
      profile reads, where it was found or why not. A value the service gave no example of (a
      card with no usages, an empty list) is "not checked" and does not fail the check: point it
      at records that have them with --gift-card, --customer, --sale. The debit body template is
      checked without sending a debit: no slot may be "?".
  kioskctl [global flags] contract import <vendor-openapi.json|yaml> [--write-profile <file>]
                                          [--allow-local-refs] [--json]
      compares the vendor's OpenAPI 3.0 document with the kiosk's assumptions; --write-profile
      writes a profile derived from it, every value it could not decide marked "?". Only $refs
      inside the document (#/...) are followed; --allow-local-refs also follows files in its
      directory. Nothing is fetched; at most 8 MiB, 100 YAML aliases, 64 levels of nesting.

The profile is the kiosk app's: --profile <file>, else KIOSK_API_PROFILE, else the one saved in
Setup (the data directory's settings: --data-dir or KIOSK_DATA_DIR), else the default (the
sandbox's shapes); check says which ("profile" in --json). The service is --base-url, else the
one saved in Setup, else KIOSK_API_BASE_URL.
With --data-dir (or KIOSK_DATA_DIR), check keeps its verdict on the gift cards' usages there: only
usages read on a card that has some, through that profile, let the outbox take "not among them"
for "never applied"; otherwise a debit whose reply was lost is held for a person.

exit codes: 0 everything the kiosk needs resolves / no difference, 2 refused locally,
            3 API error, 4 network, 9 CONTRACT_INCOMPLETE (check: a needed value missing, or the
            debit body undecided), 10 CONTRACT_DIFFERS (import), 11 CONTRACT_READ_REFUSED (check:
            the service answered a read the kiosk makes with a 4xx; wins over 9)
`;

export interface ContractCommandContext {
  readonly io: Io;
}

const options = {
  json: { type: 'boolean' },
  'write-profile': { type: 'string' },
  'allow-local-refs': { type: 'boolean' },
  'gift-card': { type: 'string' },
  customer: { type: 'string' },
  sale: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function runContractCommand(
  argv: readonly string[],
  context: ContractCommandContext,
): Promise<number> {
  return runCommand(argv, context.io, (line) => run(line, context.io));
}

async function run({ globals, args }: CommandLine, io: Io): Promise<number> {
  const { values, positionals } = parseFlags(args, options, 'kioskctl contract --help');
  if (values.help) {
    io.stdout(contractUsage);
    return exitCodes.ok;
  }
  const [command, ...rest] = positionals;
  // The kiosk app's: --profile, KIOSK_API_PROFILE, the one saved in Setup, the default.
  const loaded = setupProfileOf(globals, io.env);
  const { profile } = loaded;
  switch (command) {
    case 'check': {
      if (rest.length > 0) throw new CommandError('USAGE', `unexpected argument "${rest[0]}"`);
      if (values['write-profile'] !== undefined)
        throw new CommandError('USAGE', '--write-profile is for contract import');
      if (values['allow-local-refs'] !== undefined)
        throw new CommandError('USAGE', '--allow-local-refs is for contract import');
      const saved = setupSettingsOf(globals, io.env);
      const client = await connectApi(withSavedBaseUrl(globals, saved.apiBaseUrl), io.env, {
        logger: loggerFor(globals, io, 'kioskctl.contract'),
      });
      try {
        const report = await checkContract(client, profile, undefined, {
          giftCardId: nonEmpty(values['gift-card'], '--gift-card'),
          customerId: nonEmpty(values.customer, '--customer'),
          saleId: nonEmpty(values.sale, '--sale'),
        });
        io.stdout(
          values.json
            ? `${JSON.stringify({ ...report, profile: profileReport(loaded) })}\n`
            : formatReport(report, loaded),
        );
        // The verdict on the card's usages, kept in the kiosk's database when there is one: only
        // usages verified filled let the outbox take "absent from them" for "never applied".
        const dataDir = globals.dataDir ?? io.env['KIOSK_DATA_DIR'];
        if (dataDir !== undefined && dataDir !== '') {
          const db = openDatabase({ dataDir: prepareDataDir(dataDir), schema: kioskSchema });
          try {
            const verdict = recordUsageCheckIn(db, profile, report, Date.now());
            if (!values.json) {
              io.stdout(
                `usages: ${verdict.verified ? 'verified' : 'NOT verified'} (${verdict.detail})${verdict.verified ? '' : '; a debit whose reply was lost is held for a person'}\n`,
              );
            }
          } finally {
            db.close();
          }
        }
        if (report.refused.length > 0) {
          io.stderr(
            `${JSON.stringify({ error: { code: 'CONTRACT_READ_REFUSED', message: `the service refused reads the kiosk makes: ${report.refused.join(', ')}` } })}\n`,
          );
          return contractExitCodes.readRefused;
        }
        if (!report.ok) {
          const problems = [
            ...(report.missingNeeded.length > 0
              ? [`not found with profile "${profile.name}": ${report.missingNeeded.join(', ')}`]
              : []),
            ...(report.debitBodyUndecided.length > 0
              ? [`debit body undecided ("?"): ${report.debitBodyUndecided.join(', ')}`]
              : []),
          ];
          io.stderr(
            `${JSON.stringify({ error: { code: 'CONTRACT_INCOMPLETE', message: problems.join('; ') } })}\n`,
          );
        }
        return report.ok ? exitCodes.ok : contractExitCodes.incomplete;
      } finally {
        client.close();
      }
    }
    case 'import': {
      for (const flag of ['gift-card', 'customer', 'sale'] as const)
        if (values[flag] !== undefined)
          throw new CommandError('USAGE', `--${flag} is for contract check`);
      const [document, ...extra] = rest;
      if (document === undefined)
        throw new CommandError('USAGE', 'missing the vendor document: contract import <file>');
      if (extra.length > 0) throw new CommandError('USAGE', `unexpected argument "${extra[0]}"`);
      const result = await importContract(document, profile, {
        allowLocalRefs: values['allow-local-refs'] === true,
      }).catch((error: unknown) => {
        if (error instanceof ContractDocumentError)
          throw new CommandError(error.code, error.message);
        throw error;
      });
      const target = values['write-profile'];
      if (target !== undefined)
        await writeFile(target, `${JSON.stringify(result.profile, null, 2)}\n`);
      io.stdout(
        values.json
          ? `${JSON.stringify({ differences: result.differences, undecided: result.undecided, guessed: result.guessed })}\n`
          : formatDifferences(result, target),
      );
      return result.differences.length === 0 ? exitCodes.ok : contractExitCodes.differs;
    }
    default:
      throw new CommandError(
        'USAGE',
        command === undefined
          ? 'missing contract command: check or import (kioskctl contract --help)'
          : `unknown contract command "${command}" (check, import)`,
      );
  }
}

function nonEmpty(value: string | undefined, flag: string): string | undefined {
  if (value !== undefined && value.trim() === '')
    throw new CommandError('USAGE', `${flag} needs an id`);
  return value;
}

function formatReport(report: ContractReport, loaded: LoadedProfile): string {
  const from = loaded.path === null ? loaded.source : `${loaded.source}: ${loaded.path}`;
  const lines = [`profile: ${report.profileName} (${from})   checked at ${report.checkedAt}`, ''];
  for (const operation of report.operations) {
    const status = operation.status === null ? '-' : String(operation.status);
    lines.push(
      `${operation.operationId.padEnd(22)} ${status.padEnd(4)} ${operation.outcome}${operation.note ? `  (${operation.note})` : ''}`,
    );
    for (const value of operation.values) lines.push(`    ${formatValue(value)}`);
    if (operation.unusedFields.length > 0)
      lines.push(`    not used by the profile: ${operation.unusedFields.join(', ')}`);
  }
  lines.push('');
  if (report.notChecked.length > 0)
    lines.push(
      `not checked: the service returned no example of ${report.notChecked.join(', ')} (--gift-card, --customer, --sale point the check at records that have them)`,
    );
  if (report.refused.length > 0)
    lines.push(`REFUSED (reads the kiosk makes): ${report.refused.join(', ')}`);
  if (report.debitBodyUndecided.length > 0)
    lines.push(
      `DEBIT BODY UNDECIDED (no debit is sent with this profile): ${report.debitBodyUndecided.join(', ')}`,
    );
  if (report.missingNeeded.length > 0)
    lines.push(`MISSING (the kiosk needs them): ${report.missingNeeded.join(', ')}`);
  if (report.ok) lines.push('everything the kiosk needs resolves');
  return `${lines.join('\n')}\n`;
}

function formatValue(value: ValueReport): string {
  const name = `${value.record}.${value.field}${value.needed ? ' *' : ''}`.padEnd(30);
  const where =
    value.status === 'found'
      ? `${value.path} (${value.typeFound})`
      : value.status === 'wrong-type'
        ? `${value.path} is ${value.typeFound}`
        : '';
  const suggestions = value.suggestions.length > 0 ? `  try: ${value.suggestions.join(', ')}` : '';
  return `${name} ${value.status.padEnd(12)} ${where}${suggestions}`.trimEnd();
}

function formatDifferences(
  { differences, undecided, guessed }: ImportResult,
  written: string | undefined,
): string {
  const lines =
    differences.length === 0
      ? ['no difference between the vendor contract and what the kiosk assumes']
      : differences.map((difference) => `${difference.where}: ${difference.message}`);
  if (written !== undefined) {
    lines.push('', `profile written to ${written}`);
    if (guessed.length > 0)
      lines.push(
        `guessed (the only unclaimed property of its type; confirm with contract check): ${guessed.join(', ')}`,
      );
    if (undecided.length > 0) lines.push(`to decide by hand (marked "?"): ${undecided.join(', ')}`);
  }
  return `${lines.join('\n')}\n`;
}
