import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../../electron/cli/kioskctl.ts';
import { operationList } from '../../../shared/api/operations.ts';
import {
  demoCustomers,
  demoGiftCards,
  demoProducts,
  demoSales,
  demoSav,
} from '../../../sandbox/data/demo.ts';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.ts';

/**
 * Against a service that shapes every 'not shown' record and parameter its own way (the sandbox's
 * alternate dialect), every read operation through `kioskctl api` answers (exit 0) and prints the
 * reply exactly as the service returned it: the client holds such records to their identifier
 * only, and sends no parameter nobody asked for.
 */

let sandbox: RunningSandbox;
let env: Record<string, string>;
let token: string;
const out = mkdtempSync(join(tmpdir(), 'kiosk-api-alternate-'));

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dialect: 'alternate' });
  const account = sandbox.accounts.find((a) => a.email === 'kiosk-all@sandbox.test')!;
  env = {
    KIOSK_API_BASE_URL: sandbox.baseUrl,
    KIOSK_API_EMAIL: account.email,
    KIOSK_API_PASSWORD: account.password,
  };
  const auth = await fetch(`${sandbox.baseUrl}/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  token = ((await auth.json()) as { token: string }).token;
});
afterAll(() => sandbox.close());

const itemId = async () => {
  const reply = await raw(`/v1/products/${demoProducts.availableEverywhere}?include=items`);
  return (reply as { items: { uuid: string }[] }).items[0]!.uuid;
};
const characteristicId = async () =>
  ((await raw('/v1/characteristics')) as { data: { id: string }[] }).data[0]!.id;

async function raw(path: string): Promise<unknown> {
  const reply = await fetch(`${sandbox.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(reply.status, path).toBe(200);
  return reply.json();
}

async function kioskctl(argv: readonly string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env,
  });
  return { code, stdout, stderr };
}

const reads = operationList.filter(
  (operation) => operation.method === 'GET' && operation.operationId !== 'authenticate',
);

describe('kioskctl api against the alternate dialect', { timeout: 60_000 }, () => {
  test('covers every read operation of the contract', () => {
    expect(reads.map((operation) => operation.operationId)).toHaveLength(27);
  });

  test.each(reads.map((operation) => [operation.operationId, operation] as const))(
    '%s: exit 0, the reply as the service returned it',
    async (operationId, operation) => {
      const ids: Record<string, () => Promise<string> | string> = {
        productId: () => demoProducts.availableEverywhere,
        itemId,
        characteristicId,
        customerId: () => demoCustomers.main,
        saleId: () => demoSales.withInvoice,
        savId: () => demoSav.inRepair,
        giftCardId: () => demoGiftCards.active,
      };
      const params: [string, string][] = [];
      let path = operation.path;
      for (const name of Object.keys(operation.params?.shape ?? {})) {
        const value = await ids[name]!();
        params.push([name, value]);
        path = path.replace(`{${name}}`, encodeURIComponent(value));
      }
      if (operationId === 'listCatalogChanges') {
        params.push(['since', '2020-01-01T00:00:00Z']);
        path += '?since=2020-01-01T00:00:00Z';
      }
      if (operationId === 'searchCustomers') {
        params.push(['email', 'famille.moreau@example.com'], ['matchMode', 'exact']);
        path += '?email=famille.moreau%40example.com&matchMode=exact';
      }
      const argv = ['api', operationId, ...params.flatMap(([n, v]) => ['--param', `${n}=${v}`])];
      if ('pdf' in operation.reply) {
        const file = join(out, `${operationId}.pdf`);
        const run = await kioskctl([...argv, '--out', file]);
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
        return;
      }
      const run = await kioskctl(argv);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const printed = JSON.parse(run.stdout) as unknown;
      if (operationId === 'listCatalogChanges') {
        expect(printed).toMatchObject({ changes: expect.any(Array) });
        return;
      }
      const returned = await raw(path);
      // The catalogue's `meta.generatedAt` is the time of each call: its records are compared.
      if (operationId === 'listCatalogProducts') {
        expect((printed as { data: unknown }).data).toEqual((returned as { data: unknown }).data);
        return;
      }
      // The very JSON the service sends.
      expect(printed).toEqual(returned);
    },
  );
});
