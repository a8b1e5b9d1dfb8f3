import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../../electron/cli/kioskctl.ts';
import { recordKinds, UNDECIDED } from '../../../shared/profile/index.ts';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.ts';

/**
 * Issue 33's acceptance for `contract import`: a full vendor OpenAPI 3.0 document for the strict
 * `minimal` dialect, written as that service really answers (components, `allOf`-wrapped money,
 * `nullable` contact fields, enums, every record and the debit body closed with
 * `additionalProperties: false`), imported with `--write-profile`; the derived profile is compared
 * field by field with the shipped `sandbox/dialects/minimal.profile.json` (right / wrong / "?"),
 * then run through `contract check` against that dialect as it is, with no hand edit.
 */

const vendorDocument = new URL('./fixtures/minimal-vendor.openapi.json', import.meta.url).pathname;
const shippedProfile = new URL('../../../sandbox/dialects/minimal.profile.json', import.meta.url)
  .pathname;

type Profile = {
  name: string;
  records: Record<string, Record<string, unknown> | undefined>;
  statuses: Record<string, unknown>;
  giftCardDebit: { body: Record<string, unknown> };
  parameters: Record<string, unknown>;
};

const readProfile = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Profile;

/**
 * The fields the document names nowhere, filled by elimination (the only unclaimed property of
 * exactly their type in a closed record): the importer lists them for a person to confirm.
 */
const guessedByElimination = [
  'ping.version',
  'invoice.number',
  'sav.number',
  'savLogEntry.at',
  'historyEntry.date',
];

/** The money the kiosk shows or checks a debit against: decided by a name or a description. */
const moneyFields = (Object.entries(recordKinds) as [string, { fields: object }][]).flatMap(
  ([kind, { fields }]) =>
    Object.entries(fields)
      .filter(([, spec]) => (spec as { type: string }).type === 'money')
      .map(([field]) => `${kind}.${field}`),
);

/** Where a profile reads a field: a value left out is the field of the same name. */
const locationIn = (profile: Profile, kind: string, field: string): unknown => {
  const record = profile.records[kind];
  return record !== undefined && field in record ? record[field] : field;
};

interface Comparison {
  right: string[];
  wrong: { field: string; derived: unknown; shipped: unknown }[];
  undecided: string[];
}

function compareRecords(derived: Profile, shipped: Profile): Comparison {
  const result: Comparison = { right: [], wrong: [], undecided: [] };
  for (const [kind, { fields }] of Object.entries(recordKinds)) {
    for (const field of Object.keys(fields)) {
      const name = `${kind}.${field}`;
      const mine = locationIn(derived, kind, field);
      const theirs = locationIn(shipped, kind, field);
      if (mine === UNDECIDED) result.undecided.push(name);
      else if (JSON.stringify(mine) === JSON.stringify(theirs)) result.right.push(name);
      else result.wrong.push({ field: name, derived: mine, shipped: theirs });
    }
  }
  return result;
}

const io = () => {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: {
      stdout: (text: string) => (out.stdout += text),
      stderr: (text: string) => (out.stderr += text),
    },
  };
};

describe(
  'contract import on a full vendor document for the minimal dialect',
  { timeout: 60_000 },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'kiosk-import-minimal-'));
    const derivedFile = join(dir, 'derived.profile.json');
    let sandbox: RunningSandbox;
    let env: Record<string, string>;
    let importOutput = '';

    beforeAll(async () => {
      sandbox = await startSandbox({ port: 0, dialect: 'minimal' });
      const account = sandbox.accounts.find((a) => a.email === 'kiosk-all@sandbox.test')!;
      env = {
        KIOSK_API_BASE_URL: sandbox.baseUrl,
        KIOSK_API_EMAIL: account.email,
        KIOSK_API_PASSWORD: account.password,
      };
      const run = io();
      const code = await main(
        ['contract', 'import', vendorDocument, '--write-profile', derivedFile],
        { ...run.io, env },
      );
      // The document differs from the kiosk's default assumptions (other names): exit "differs".
      expect(run.out.stderr).toBe('');
      expect(code).not.toBe(0);
      expect(run.out.stdout).toContain(`profile written to ${derivedFile}`);
      importOutput = run.out.stdout;
    });
    afterAll(() => sandbox?.close());

    test('field by field against the shipped profile: 75 right, none wrong, none "?"', () => {
      const derived = readProfile(derivedFile);
      const shipped = readProfile(shippedProfile);
      expect(derived.name).toBe('Minimal Commerce API v1.0.0');
      const { right, wrong, undecided } = compareRecords(derived, shipped);
      console.info(
        `minimal vendor document → records: ${right.length} right, ${wrong.length} wrong, ${undecided.length} "?"\n` +
          wrong
            .map(
              (w) =>
                `  ${w.field}: derived ${JSON.stringify(w.derived)}, shipped ${JSON.stringify(w.shipped)}`,
            )
            .join('\n'),
      );
      expect({ right: right.length, wrong: wrong.length, undecided: undecided.length }).toEqual({
        right: 75,
        wrong: 0,
        undecided: 0,
      });
    });

    test('the guesses are listed, and none of them is money', () => {
      expect(importOutput).toContain(
        `guessed (the only unclaimed property of its type; confirm with contract check): ${guessedByElimination.join(', ')}`,
      );
      expect(importOutput).not.toContain('to decide by hand');
      expect(moneyFields.filter((field) => guessedByElimination.includes(field))).toEqual([]);
      // The sale's `due` is described as its total; its name alone would have made it the rest to pay.
      const derived = readProfile(derivedFile);
      expect(derived.records.sale).toMatchObject({ total: 'due', remainingToPay: null });
      expect(derived.records.debitReceipt).toMatchObject({ balance: 'left' });
      expect(derived.records.credit).toMatchObject({ remainingAmount: 'left' });
    });

    test('the debit body, the status words and the parameters: decided by the document', () => {
      const derived = readProfile(derivedFile);
      const shipped = readProfile(shippedProfile);
      expect(derived.giftCardDebit.body).toEqual(shipped.giftCardDebit.body);
      expect(derived.statuses).toEqual(shipped.statuses);
      const { unpaged: derivedUnpaged, ...derivedParameters } = derived.parameters;
      const { unpaged: shippedUnpaged, ...shippedParameters } = shipped.parameters;
      expect(derivedParameters).toEqual(shippedParameters);
      expect([...(derivedUnpaged as string[])].sort()).toEqual(
        [...(shippedUnpaged as string[])].sort(),
      );
    });

    async function check(profileFile: string) {
      const run = io();
      const code = await main(['--profile', profileFile, 'contract', 'check', '--json'], {
        ...run.io,
        env,
      });
      return { code, ...run.out };
    }

    test('contract check, the derived profile as it is: exit 0, nothing refused, nothing missing', async () => {
      const run = await check(derivedFile);
      const report = JSON.parse(run.stdout) as {
        ok: boolean;
        refused: string[];
        missingNeeded: string[];
        debitBodyUndecided: string[];
      };
      expect(run.stderr).toBe('');
      expect(report).toMatchObject({
        refused: [],
        missingNeeded: [],
        debitBodyUndecided: [],
        ok: true,
      });
      expect(run.code).toBe(0);
    });

    test('a wrong guess is reported by contract check, not silently used', async () => {
      // The same document with the invoice's two strings described the wrong way round: the
      // number declared a date-time, the issue date a plain string. Each is then the only
      // unclaimed property of the other's type, so the importer guesses both, and says so.
      const document = JSON.parse(readFileSync(vendorDocument, 'utf8')) as {
        components: { schemas: { Invoice: { properties: Record<string, object> } } };
      };
      document.components.schemas.Invoice.properties.invoiceNo = {
        type: 'string',
        format: 'date-time',
      };
      document.components.schemas.Invoice.properties.issued = { type: 'string' };
      const source = join(dir, 'swapped.openapi.json');
      const derived = join(dir, 'swapped.profile.json');
      writeFileSync(source, JSON.stringify(document));
      const run = io();
      await main(['contract', 'import', source, '--write-profile', derived], { ...run.io, env });
      expect(run.out.stdout).toMatch(/guessed \(.*\): .*invoice\.number, invoice\.issuedAt/);
      expect(readProfile(derived).records.invoice).toMatchObject({
        number: 'issued',
        issuedAt: 'invoiceNo',
      });
      const checked = await check(derived);
      const report = JSON.parse(checked.stdout) as {
        operations: {
          operationId: string;
          values: { record: string; field: string; status: string; path: string | null }[];
        }[];
      };
      const invoice = report.operations.find((o) => o.operationId === 'getSaleInvoice');
      // The invoice number is no date: the check shows the guess wrong where a person looks.
      expect(invoice?.values).toContainEqual(
        expect.objectContaining({
          record: 'invoice',
          field: 'issuedAt',
          status: 'wrong-type',
          path: 'invoiceNo',
        }),
      );
    });
  },
);
